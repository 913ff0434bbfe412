// Memory per idle MCP session: 1,000 sessions opened through real HTTP `initialize` requests on the
// Hamlet stack (each client keeps nothing and never comes back), heap measured after forced GC in
// the server process before and after. The same requests against the same stack with sessions
// turned off give the reference (what initialize costs when it keeps nothing). Target ≤ 10 KB.
//
//   node --expose-gc --import tsx bench/mcp-session-memory.ts [--sessions=1000] [--concurrency=4]
//
// The servers run in child processes forked with --expose-gc, so the flag on the parent is optional.
// Exit code 1 when a request fails or the session count does not grow as expected.
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { startServerChild, type ServerChild } from './lib/child.ts';
import type { HeapSample } from './lib/server-child.ts';
import { positiveNumber, readOptions } from './lib/options.ts';
import type { ServerKind } from './lib/servers.ts';

const TARGET_BYTES = 10 * 1024;
const WARMUP_REQUESTS = 1000;

const opts = readOptions({
  sessions: { default: '1000', help: 'initialize requests (sessions) to measure' },
  concurrency: { default: '4', help: 'requests in flight at once' },
});
const count = Math.round(positiveNumber('sessions', opts.sessions));
const concurrency = Math.round(positiveNumber('concurrency', opts.concurrency));

function initializeBody(i: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} },
      clientInfo: { name: `bench-client-${i}`, version: '1.0.0' },
    },
  });
}

/** One initialize; returns the Mcp-Session-Id it was given, if any, after checking the result. */
async function initialize(url: string, agent: Agent, i: number): Promise<string | undefined> {
  const body = initializeBody(i);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          const msg = JSON.parse(text);
          if (
            res.statusCode !== 200 ||
            msg.jsonrpc !== '2.0' ||
            msg.id !== 1 ||
            typeof msg.result?.protocolVersion !== 'string'
          )
            throw new Error('not an initialize result');
        } catch (err) {
          reject(
            new Error(
              `initialize #${i} failed (${(err as Error).message}): HTTP ${res.statusCode} ${text.slice(0, 200)}`,
            ),
          );
          return;
        }
        const sid = res.headers['mcp-session-id'];
        resolve(Array.isArray(sid) ? sid[0] : sid);
      });
    });
    req.end(body);
  });
}

/** Sends `n` initialize requests, `concurrency` at a time; returns how many answered with a session id. */
async function initializeMany(url: string, n: number, offset: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  let withSession = 0;
  const worker = async () => {
    while (next < n) {
      const i = offset + next++;
      if (await initialize(url, agent, i)) withSession++;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return withSession;
}

type Run = { kind: ServerKind; before: HeapSample; after: HeapSample; answeredWithSession: number };

async function measure(kind: ServerKind): Promise<Run> {
  const child: ServerChild = await startServerChild(kind, { exposeGc: true });
  try {
    // Warm-up: compile the hot paths and grow one-time structures before the first sample.
    await initializeMany(child.url, WARMUP_REQUESTS, 0);
    const before = await child.heap();
    const answeredWithSession = await initializeMany(child.url, count, WARMUP_REQUESTS);
    const after = await child.heap();
    return { kind, before, after, answeredWithSession };
  } finally {
    await child.stop();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${fmt(Math.abs(n))}`;

console.log(
  `MCP idle session memory: node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n` +
    `${fmt(count)} HTTP initialize requests (concurrency ${concurrency}, after ${fmt(WARMUP_REQUESTS)} warm-up), heapUsed after forced GC in the server process\n`,
);

const reference = await measure('hamlet-no-sessions');
const hamlet = await measure('hamlet');

const header = [
  'server',
  'sessions',
  'heapUsed before',
  'heapUsed after',
  'delta',
  'per request',
  'external delta',
];
const rows = [reference, hamlet].map((r) => {
  const delta = r.after.heapUsed - r.before.heapUsed;
  return [
    r.kind,
    signed((r.after.sessions ?? 0) - (r.before.sessions ?? 0)),
    fmt(r.before.heapUsed),
    fmt(r.after.heapUsed),
    signed(delta),
    `${signed(delta / count)} B`,
    signed(r.after.external - r.before.external),
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));

const perSession = (hamlet.after.heapUsed - hamlet.before.heapUsed) / count;
const net = perSession - (reference.after.heapUsed - reference.before.heapUsed) / count;
console.log(
  `\nper idle session: ${fmt(perSession)} B (${fmt(net)} B net of the reference)  target ≤ ${fmt(TARGET_BYTES)} B (10 KB)  ${perSession <= TARGET_BYTES ? 'PASS' : 'MISS'}`,
);

const created = (hamlet.after.sessions ?? 0) - (hamlet.before.sessions ?? 0);
const problems: string[] = [];
if (created !== count || hamlet.answeredWithSession !== count)
  problems.push(
    `hamlet opened ${created} sessions and returned ${hamlet.answeredWithSession} session ids for ${count} requests`,
  );
if (reference.answeredWithSession !== 0 || reference.after.sessions !== reference.before.sessions)
  problems.push('the reference opened sessions');
if (problems.length) {
  console.error(`\nINVALID: ${problems.join('; ')}.`);
  process.exitCode = 1;
}
