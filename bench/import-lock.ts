// `/heartbeat` and REST writes of a live SQLite server while `hamlet import mail` imports one long
// reply chain into the same database file from another process: the server must keep answering
// while the importer commits, and its writes must get their turn at the write lock.
//   node --import tsx bench/import-lock.ts [--messages=30000] [--write-every=250]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMailChain } from '../test/import/mail-chain.ts';
import { positiveNumber, readOptions } from './lib/options.ts';
import { demoSecrets, startLineOf, type StartLine } from '../test/helpers/serve.ts';

const options = readOptions({
  messages: { default: '30000', help: 'messages in the one generated reply chain' },
  'write-every': { default: '250', help: 'ms between REST writes (create_topic) to the server' },
  'heartbeat-gap': { default: '20', help: 'ms between one /heartbeat answer and the next request' },
});
const messages = positiveNumber('messages', options.messages);
const writeEvery = positiveNumber('write-every', options['write-every']);
const heartbeatGap = positiveNumber('heartbeat-gap', options['heartbeat-gap']);

const dir = mkdtempSync(join(tmpdir(), 'hamlet-import-lock-'));
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(dir, 'live.db')}`,
  HAMLET_BASE_DOMAIN: 'localhost',
  LOG_LEVEL: 'warn',
  // The bench's writes come from one key and one address, faster than the default limits allow.
  HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
  HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function serve(port: number): Promise<{ child: ChildProcess; key: string }> {
  const child = spawn(process.execPath, ['bin/hamlet.js', 'serve', '--demo'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (log += c));
  child.stderr!.on('data', (c: Buffer) => (stderr += c));
  const start = await new Promise<StartLine>((resolve, reject) => {
    const poll = setInterval(() => {
      const line = startLineOf(log);
      if (line) {
        clearInterval(poll);
        resolve(line);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`hamlet serve exited with ${code}:\n${stderr}`));
    });
  });
  const key = demoSecrets(start).key;
  if (!key) throw new Error(`no demo agent key kept: ${JSON.stringify(start)}`);
  child.stdout!.removeAllListeners('data');
  child.stdout!.on('data', (c: Buffer) => process.stderr.write(`[server] ${c}`));
  child.stderr!.on('data', (c: Buffer) => process.stderr.write(`[server] ${c}`));
  return { child, key };
}

type Sample = { ms: number; ok: boolean; status: number | string };

function summary(name: string, samples: Sample[]): string {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q: number) =>
    ms.length ? ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]! : 0;
  const failed = samples.filter((s) => !s.ok);
  const statuses = [...new Set(failed.map((s) => s.status))].join(', ');
  return (
    `${name}: ${samples.length} requests, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, ` +
    `max ${(ms.at(-1) ?? 0).toFixed(1)} ms, ${failed.length} failed${statuses ? ` (${statuses})` : ''}`
  );
}

async function timed(request: () => Promise<Response>, expect: number): Promise<Sample> {
  const t0 = performance.now();
  try {
    const res = await request();
    await res.arrayBuffer();
    return { ms: performance.now() - t0, ok: res.status === expect, status: res.status };
  } catch (err) {
    return { ms: performance.now() - t0, ok: false, status: (err as Error).name };
  }
}

const started: ChildProcess[] = [];
try {
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const mbox = join(dir, 'chain.mbox');
  writeMailChain(mbox, messages);
  const created = spawnSync(
    process.execPath,
    ['bin/hamlet.js', 'community', 'create', 'lists', '--name', 'Lists'],
    { env, encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`community create failed: ${created.stderr}`);
  const port = await freePort();
  const server = await serve(port);
  started.push(server.child);
  const base = `http://127.0.0.1:${port}`;
  const heartbeat = () =>
    timed(() => fetch(`${base}/heartbeat`, { signal: AbortSignal.timeout(30_000) }), 200);
  let writes = 0;
  const write = () =>
    timed(
      () =>
        fetch(`${base}/c/acme/api/v1/topics`, {
          method: 'POST',
          signal: AbortSignal.timeout(30_000),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${server.key}` },
          body: JSON.stringify({
            category: 'support',
            title: `Written during the import, number ${++writes}`,
            body: 'A question the server stores while another process imports mail.',
          }),
        }),
      201,
    );

  const idle: Sample[] = [];
  for (let i = 0; i < 50; i++) idle.push(await heartbeat());
  console.log(summary('idle /heartbeat', idle));

  const t0 = performance.now();
  const importer = spawn(
    process.execPath,
    ['bin/hamlet.js', 'import', 'mail', mbox, '--community', 'lists'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started.push(importer);
  let importOut = '';
  let importErr = '';
  importer.stdout!.on('data', (c: Buffer) => (importOut += c));
  importer.stderr!.on('data', (c: Buffer) => (importErr += c));
  let running = true;
  const exited = new Promise<number | null>((resolve) =>
    importer.once('exit', (code) => {
      running = false;
      resolve(code);
    }),
  );
  const beats: Sample[] = [];
  const written: Sample[] = [];
  const beating = (async () => {
    while (running) {
      beats.push(await heartbeat());
      await sleep(heartbeatGap);
    }
  })();
  const writing = (async () => {
    while (running) {
      const next = performance.now() + writeEvery;
      written.push(await write());
      await sleep(Math.max(0, next - performance.now()));
    }
  })();
  const code = await exited;
  await Promise.all([beating, writing]);
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `import of a ${messages}-message chain: exit ${code}, ${seconds.toFixed(1)} s; ${importOut.trim()}`,
  );
  if (code !== 0) console.log(importErr.split('\n').slice(-8).join('\n'));
  console.log(summary('/heartbeat during the import', beats));
  console.log(summary('REST create_topic during the import', written));
} finally {
  for (const child of started) if (child.exitCode === null) child.kill('SIGTERM');
  await sleep(500);
  rmSync(dir, { recursive: true, force: true });
}
