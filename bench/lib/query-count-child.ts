// Child-process entry of bench/real-server.ts: the database statements each case costs. Starts
// Hamlet in this process exactly as `hamlet serve --demo` does (startHamlet with the demo, a fresh
// demo key), on the database of the environment's DATABASE_URL, with the drivers counted per
// request (query-counter.ts); then, asked for cases (the real-server bench's, by id, or the
// caller's own requests), sends each a few times to warm up and `requests` more one after another,
// and answers the statements each of those requests sent.
// Its own process, so the counting hooks never touch the server whose speed is measured.
import { Agent } from 'node:http';
import { Writable } from 'node:stream';
import { countPerRequest, type RequestTally } from './query-counter.ts';
import { loadConfig } from '../../src/config/config.ts';
import { freshDemoAgentKey } from '../../src/demo/demo-key.ts';
import { startHamlet } from '../../src/main.ts';
import { realCases } from './real-cases.ts';
import { send } from './send.ts';
import type { BenchRequest } from './servers.ts';

/**
 * A request of the caller's own (path on the server, what to send), counted like a case; "{n}" in
 * its body becomes a number new to every request (writes that must not repeat themselves), "{key}"
 * in a header the demo agent's key.
 */
export type CustomCase = { id: string; path: string; request: BenchRequest };
export type CountRequest = { ids: string[]; requests: number; custom?: CustomCase[] };
export type CaseCount = {
  id: string;
  mean: number;
  min: number;
  max: number;
  /** The statements of the last counted request. */
  last: string[];
  problem?: string;
};
export type CountReply = { counts: CaseCount[] } | { error: string };

if (!process.send) throw new Error('query-count-child.ts runs as a forked child (IPC).');
const silent = new Writable({ write: (_c, _e, done) => done() });
const hamlet = await startHamlet(
  loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }),
  { demo: true, handleSignals: false, logDestination: silent },
);
const demo = await freshDemoAgentKey(hamlet.store, hamlet.services.agents);
if (!demo) throw new Error('the demo community is missing');
let tallies: RequestTally[] = [];
countPerRequest(hamlet.server, (t) => tallies.push(t));
const origin = hamlet.url.replace(/\/\/[^:/]+/, '//127.0.0.1');
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** Resolves once no counted request sent a statement for 20 ms (work a response left running). */
async function settled(): Promise<void> {
  const total = () => tallies.reduce((n, t) => n + t.statements.length, 0);
  const deadline = Date.now() + 2_000;
  let last = total();
  let stableSince = Date.now();
  while (Date.now() - stableSince < 20 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 5));
    if (total() !== last) [last, stableSince] = [total(), Date.now()];
  }
}

/** A custom case's answer is right when it is a 200 without a JSON-RPC or tool error. */
function custom(c: CustomCase) {
  return {
    ...c,
    check: (a: { status: number; text: string }) =>
      a.status !== 200 || /"error"|"isError":true/.test(a.text)
        ? `${a.status} ${a.text.slice(0, 200)}`
        : undefined,
  };
}

/** Requests sent so far (the "{n}" of custom cases). */
let sent = 0;

async function count(
  ids: string[],
  requests: number,
  customCases: CustomCase[] = [],
): Promise<CaseCount[]> {
  const out: CaseCount[] = [];
  const cases = [
    ...realCases(demo!.key).filter((x) => ids.includes(x.id)),
    ...customCases.map(custom),
  ];
  for (const c of cases) {
    let problem: string | undefined;
    const request = () => ({
      ...c.request,
      headers: Object.fromEntries(
        Object.entries(c.request.headers).map(([k, v]) => [k, v.replaceAll('{key}', demo!.key)]),
      ),
      body: c.request.body?.replaceAll('{n}', String(++sent)),
    });
    for (let i = 0; i < 3; i++) problem ??= c.check(await send(origin + c.path, request(), agent));
    await settled();
    tallies = [];
    for (let i = 0; i < requests; i++)
      problem ??= c.check(await send(origin + c.path, request(), agent));
    await settled();
    const q = tallies.map((t) => t.statements.length);
    out.push({
      id: c.id,
      mean: q.reduce((a, b) => a + b, 0) / Math.max(1, q.length),
      min: Math.min(...q),
      max: Math.max(...q),
      last: tallies.at(-1)?.statements ?? [],
      ...(problem ? { problem } : {}),
    });
  }
  return out;
}

process.on('message', (msg: CountRequest) => {
  count(msg.ids, msg.requests, msg.custom).then(
    (counts) => process.send!({ counts } satisfies CountReply),
    (err: unknown) =>
      process.send!({
        error: err instanceof Error ? err.message : String(err),
      } satisfies CountReply),
  );
});
process.on('disconnect', () => {
  agent.destroy();
  hamlet.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
process.send({ ready: true });
