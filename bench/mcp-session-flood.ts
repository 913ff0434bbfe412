// Does a flood of anonymous MCP sessions slow everyone down? A real Hamlet (child process, demo
// data) holds `--sessions` anonymous sessions of the acme community; an agent then posts replies
// one after another (each reply is a content event that must reach the sessions subscribed to the
// topic) while /heartbeat is polled every 10 ms. Reported: reply latency and /heartbeat latency,
// with no sessions and with the flood, in the same run.
//
//   node --import tsx bench/mcp-session-flood.ts [--sessions=50000] [--writes=20]
//
// Target: /heartbeat p99 under 100 ms while replies are written with 50k anonymous sessions present.
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { positiveNumber, readOptions } from './lib/options.ts';

const TARGET_MS = 100;
const opts = readOptions({
  sessions: { default: '50000', help: 'anonymous sessions present during the writes' },
  writes: { default: '20', help: 'replies posted one after another' },
});
const flood = Math.round(positiveNumber('sessions', opts.sessions));
const writes = Math.round(positiveNumber('writes', opts.writes));
const CHILD = fileURLToPath(new URL('./lib/flood-child.ts', import.meta.url));

type Ready = { port: string; key: string; topic: string; sessions: number };
type Row = { sessions: number; write: number[]; heartbeat: number[] };

async function measure(sessions: number): Promise<Row> {
  const child = fork(CHILD, [String(sessions)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) =>
      reject(new Error(`the Hamlet child exited (${code}) before it was ready`)),
    );
  });
  child.removeAllListeners('exit');
  const base = `http://127.0.0.1:${ready.port}`;
  const heartbeat: number[] = [];
  let polling = true;
  let measuring = false;
  const poller = (async () => {
    while (polling) {
      const t0 = performance.now();
      await fetch(`${base}/heartbeat`).then((r) => r.arrayBuffer());
      if (measuring) heartbeat.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const write: number[] = [];
  // The first replies warm the server up (JIT, statement caches): not measured.
  for (let i = -3; i < writes; i++) {
    const t0 = performance.now();
    const call = {
      jsonrpc: '2.0',
      id: i + 10,
      method: 'tools/call',
      params: {
        name: 'reply_to_topic',
        arguments: { topic: ready.topic, body: `Flood bench reply number ${i}.` },
      },
    };
    const res = await post(
      Number(ready.port),
      `acme.localhost:${ready.port}`,
      ready.key,
      JSON.stringify(call),
    );
    const body = JSON.parse(res.text) as { result?: { isError?: boolean } };
    if (res.status !== 200 || body.result?.isError !== false)
      throw new Error(`reply ${i} failed: HTTP ${res.status} ${res.text.slice(0, 300)}`);
    if (i >= 0) write.push(performance.now() - t0);
    if (i === -1) measuring = true;
  }
  polling = false;
  await poller;
  agent.destroy();
  child.disconnect();
  await new Promise((r) => child.once('exit', r));
  return { sessions: ready.sessions, write, heartbeat };
}

const agent = new Agent({ keepAlive: true });

/** A POST with a Host header of our choosing (fetch would drop it). */
async function post(
  port: number,
  host: string,
  key: string,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: '127.0.0.1',
        port,
        path: '/api/mcp',
        method: 'POST',
        agent,
        headers: { host, 'content-type': 'application/json', authorization: `Bearer ${key}` },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const ms = (x: number) => x.toFixed(1);

console.log(
  `MCP session flood: node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${writes} replies per row\n`,
);
const rows = [await measure(0), await measure(flood)];
console.log(
  'sessions   reply p50 ms  reply max ms  heartbeat p50 ms  heartbeat p99 ms  heartbeat max ms  heartbeats',
);
for (const r of rows) {
  console.log(
    [
      String(r.sessions).padStart(8),
      ms(pct(r.write, 50)).padStart(13),
      ms(Math.max(...r.write)).padStart(13),
      ms(pct(r.heartbeat, 50)).padStart(17),
      ms(pct(r.heartbeat, 99)).padStart(17),
      ms(Math.max(...r.heartbeat)).padStart(17),
      String(r.heartbeat.length).padStart(11),
    ].join(' '),
  );
}
const p99 = pct(rows[1]!.heartbeat, 99);
console.log(
  `\n/heartbeat p99 with ${rows[1]!.sessions} sessions while writing: ${ms(p99)} ms  (target < ${TARGET_MS} ms)  ${p99 < TARGET_MS ? 'PASS' : 'MISS'}`,
);
