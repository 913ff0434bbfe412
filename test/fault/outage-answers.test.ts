// What clients are told while PostgreSQL is away: one instance under a small load on every face
// (MCP tool calls that write, REST reads, web pages), through a `pg_ctl restart -m fast` and a stop
// of a few seconds. No answer may be a 500 or an `internal` tool error: every refusal is a 503 with
// Retry-After (a tool call's failure: code `unavailable` with retry_after_ms), writes arriving
// during the short restart wait for the server instead of failing, and every acknowledged write
// is stored exactly once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstances, readyWithin, type Instance, type Instances } from './instances.ts';
import { postgresBin, startPgServer, type PgServer } from './pg-server.ts';
import { seedCommunity } from './seed.ts';

/** Every answer of the load, by what it was: status, Retry-After, and a tool call's error code. */
type Seen = { face: string; status: number; retryAfter: boolean; code?: string; retryMs?: number };

type Load = {
  seen: Seen[];
  acked: string[];
  stop(): Promise<void>;
};

const missing = postgresBin() ? undefined : 'PostgreSQL is not installed';
if (missing) {
  if (process.env.CI === 'true')
    test('outage answers', () => assert.fail(`CI=true but ${missing}`));
  else test('outage answers', { skip: missing }, () => {});
} else {
  let server: PgServer;
  let instances: Instances;
  let key: string;
  before(async () => {
    server = await startPgServer();
    ({ key } = await seedCommunity(server.url));
    instances = await startInstances(
      server.url,
      {
        HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
        HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
        HAMLET_PG_POOL_SIZE: '4',
        HAMLET_PG_CONNECT_TIMEOUT_MS: '1500',
      },
      ['A'],
    );
  });
  after(async () => {
    await instances?.stop();
    await server?.stop();
  });

  for (const [label, fault] of [
    ['restart', () => server.restart()],
    ['stop', () => server.pause(3_000)],
  ] as const) {
    test(`a ${label} of PostgreSQL answers 503 with Retry-After, never 500`, async (t) => {
      const instance = instances.list[0]!;
      const load = startLoad(instance, key, label);
      await new Promise((r) => setTimeout(r, 500));
      const faultStarted = performance.now();
      await fault();
      const faultMs = Math.round(performance.now() - faultStarted);
      await readyWithin(instance, 10_000);
      await new Promise((r) => setTimeout(r, 500));
      await load.stop();

      const byStatus = new Map<string, number>();
      for (const s of load.seen) {
        const k = `${s.face} ${s.status}${s.code ? ` ${s.code}` : ''}`;
        byStatus.set(k, (byStatus.get(k) ?? 0) + 1);
      }
      t.diagnostic(`${label} (${faultMs} ms): ${JSON.stringify(Object.fromEntries(byStatus))}`);

      assert.deepEqual(instances.exits, [], 'the instance did not exit');
      const fiveHundreds = load.seen.filter((s) => s.status >= 500 && s.status !== 503);
      assert.deepEqual(fiveHundreds, [], 'no 500 (or other 5xx but 503)');
      const internal = load.seen.filter((s) => s.code === 'internal');
      assert.deepEqual(internal, [], 'no internal tool error');
      const refused = load.seen.filter((s) => s.status === 503 || s.code === 'unavailable');
      assert.ok(
        refused.every((s) => s.retryAfter),
        'every refusal carries Retry-After (or retry_after_ms)',
      );
      const unexpected = load.seen.filter((s) => s.status !== 200 && s.status !== 503);
      assert.deepEqual(unexpected, [], 'only 200 and 503 were answered, each in time');
      if (label === 'stop') assert.ok(refused.length > 0, 'a stop of 3 s was refused somewhere');
      assert.ok(load.acked.length > 0, 'writes were acknowledged');

      const rows = await server.query<{ title: string; n: string }>(
        `select title, count(*) as n from topics where title like $1 group by title`,
        [`Outage ${label} %`],
      );
      const stored = new Map(rows.map((r) => [r.title, Number(r.n)]));
      assert.deepEqual(
        load.acked.filter((t) => stored.get(t) !== 1),
        [],
        'every acknowledged write stored exactly once',
      );
    });
  }
}

/** Writes (MCP create_topic) and reads (REST, web) in a loop, each answer recorded. */
function startLoad(instance: Instance, key: string, label: string): Load {
  let stopped = false;
  const load: Load = { seen: [], acked: [], stop: async () => {} };
  const auth = { authorization: `Bearer ${key}` };
  const loop = async (step: (i: number) => Promise<void>) => {
    for (let i = 0; !stopped; i++) {
      const started = Date.now();
      await step(i);
      const wait = started + 100 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  };
  const get = async (face: string, path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(instance.url(path), { headers, signal: AbortSignal.timeout(8_000) });
    await res.arrayBuffer();
    load.seen.push({ face, status: res.status, retryAfter: res.headers.has('retry-after') });
  };
  const write = async (i: number) => {
    const title = `Outage ${label} write ${i} is kept once`;
    const body = {
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: {
        name: 'create_topic',
        arguments: {
          category: 'support',
          title,
          body: `Body of ${title}.`,
          idempotency_key: `outage-${label}-${i}`,
        },
      },
    };
    const res = await fetch(instance.url('/c/acme/api/mcp'), {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(8_000),
    });
    const text = await res.text();
    const seen: Seen = {
      face: 'mcp',
      status: res.status,
      retryAfter: res.headers.has('retry-after'),
    };
    const answer = text ? (JSON.parse(text) as Record<string, any>) : {};
    const result = answer.result as { isError?: boolean; structuredContent?: any } | undefined;
    if (answer.error) {
      seen.code = `rpc ${answer.error.code}`;
      seen.retryAfter &&= typeof answer.error.data?.retryAfterMs === 'number';
    } else if (result?.isError) {
      seen.code = result.structuredContent?.code;
      seen.retryMs = result.structuredContent?.retry_after_ms;
      seen.retryAfter = typeof seen.retryMs === 'number';
    } else if (result) load.acked.push(title);
    load.seen.push(seen);
  };
  // No answer at all (the connection failed, or none within 8 s) is recorded as status 0.
  const failed = (face: string) => (err: unknown) => {
    load.seen.push({ face, status: 0, retryAfter: false, code: String(err) });
  };
  const running = Promise.all([
    loop(async (i) => write(i).catch(failed('mcp'))),
    loop(async () => get('rest', '/c/acme/api/v1/topics', auth).catch(failed('rest'))),
    loop(async () => get('web', '/c/acme/').catch(failed('web'))),
  ]);
  load.stop = async () => {
    stopped = true;
    await running;
  };
  return load;
}
