// A failing request never ends the process: the serving process logs an error nobody observed
// and keeps serving everyone else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, serveProcess } from '../helpers/serve.ts';
import { childScript } from '../helpers/child-script.ts';

test('an unobserved rejection and an uncaught exception are logged; the process goes on', async () => {
  const child = spawn(process.execPath, childScript(import.meta.url, './last-resort-child.ts'), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 0, out);
  assert.match(out, /still alive/);
  const lines = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  const rejection = lines.find((l) => /unhandled promise rejection/.test(l.msg));
  const exception = lines.find((l) => /uncaught exception/.test(l.msg));
  assert.equal(rejection?.err.message, 'nobody awaited this');
  assert.equal(exception?.err.message, 'thrown in a timer');
});

test('`hamlet serve` keeps serving after a request whose failure nobody awaited', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-last-resort-'));
  const port = await freePort();
  const { child } = await serveProcess(
    { DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`, PORT: String(port), HOST: '127.0.0.1' },
    { demo: true },
  );
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    // Issue 20's first repro: the authorize page started a lookup it never awaited, which rejects
    // on the NUL character. Whether or not that page is fixed, the process must stay up.
    const url = `http://127.0.0.1:${port}`;
    const res = await fetch(`${url}/c/acme/oauth/authorize?client_id=%00`, { redirect: 'manual' });
    await res.arrayBuffer();
    for (let i = 0; i < 5; i++) {
      const beat = await fetch(`${url}/heartbeat`);
      assert.equal(beat.status, 200);
      await beat.arrayBuffer();
    }
    assert.equal(exited, false, 'the process is still there');
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
