// `hamlet serve` with HAMLET_EMBEDDINGS_URL pointing where nothing listens, as a half-configured
// start leaves it: search_community and search_network in hybrid and semantic mode answer lexically
// with `mode: "lexical"`, suggest_answer answers, and the log says so once, not once per search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoSecrets, freePort, startLineOf } from '../helpers/serve.ts';
import { hamletArgs } from '../helpers/hamlet-bin.ts';
import { waitFor } from '../helpers/wait.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-embeddings-down-'));
let child: ChildProcess | undefined;
test.after(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

test('an unreachable embeddings endpoint: semantic tools answer lexically, one warning in the log', async () => {
  const [port, nowhere] = [await freePort(), await freePort()];
  child = spawn(process.execPath, [...(await hamletArgs()), 'serve', '--demo'], {
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${join(dir, 'down.db')}`,
      PORT: String(port),
      HAMLET_BASE_DOMAIN: 'localhost',
      HAMLET_EMBEDDINGS_URL: `http://127.0.0.1:${nowhere}/v1`,
      HAMLET_EMBEDDINGS_MODEL: 'nomic-embed-text',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (log += c));
  child.stderr!.on('data', (c: Buffer) => (stderr += c));
  const exited = new Promise<never>((_, reject) =>
    child!.once('exit', (code) => reject(new Error(`hamlet exited with ${code}:\n${stderr}`))),
  );
  const start = await Promise.race([
    waitFor(() => startLineOf(log), { timeoutMs: 90_000 }),
    exited,
  ]);
  const key = demoSecrets(start).key!;
  let id = 0;
  // The network server answers on the apex host (HAMLET_BASE_DOMAIN), a community on any host.
  const call = async (path: string, name: string, args: Record<string, unknown>, auth = true) => {
    const res = await fetch(`http://localhost:${port}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(auth ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
    });
    const body = (await res.json()) as {
      result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
    };
    assert.equal(body.result?.isError, false, `${name}: ${JSON.stringify(body)}`);
    return body.result!.structuredContent!;
  };

  for (const mode of ['hybrid', 'semantic', 'hybrid']) {
    const community = await call('/c/acme/api/mcp', 'search_community', {
      query: 'webhook signature verification',
      mode,
    });
    assert.equal(community.mode, 'lexical', `search_community in ${mode} mode`);
    assert.ok((community.results as unknown[]).length > 0);
    const network = await call(
      '/api/mcp',
      'search_network',
      { query: 'webhook signature verification', mode },
      false,
    );
    assert.equal(network.mode, 'lexical', `search_network in ${mode} mode`);
  }
  const suggested = await call('/c/acme/api/mcp', 'suggest_answer', {
    question: 'How do I verify a webhook signature?',
  });
  assert.equal(typeof suggested.message, 'string');

  // The log is written in batches: wait (with a deadline) for the warning's line to arrive.
  const warningsSoFar = () =>
    log
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.level === 40 && /embeddings endpoint/.test(l.msg));
  await waitFor(() => (warningsSoFar().length ? true : undefined), { timeoutMs: 10_000 }).catch(
    () => undefined,
  );
  const warnings = warningsSoFar();
  assert.equal(warnings.length, 1, `one warning for 7 searches:\n${log}`);
  assert.match(warnings[0]!.msg, /run lexically/);
});
