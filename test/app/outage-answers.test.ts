// A database that cannot take writes is an outage, not a bug: with the SQLite file turned read-only
// while serving (as a full disk or a failing volume leaves it), a write on every face answers 503
// with Retry-After (REST problem+json with code `unavailable`, an MCP tool error with code
// `unavailable` and retry_after_ms), pages keep serving, and once the file is writable
// again the same write succeeds; a file that cannot be opened for want of a writable folder says
// so. (PostgreSQL restarts and stops: test/fault/outage-answers.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { freshDemoAgentKey } from '../../src/demo/demo-key.ts';
import { openStore } from '../../src/store/open.ts';
import { raw, rpc } from '../mcp/http-client.ts';
import { startTestHamlet } from './helpers.ts';

const root = process.getuid?.() === 0;

test('a SQLite file that refuses writes: writes answer 503 with Retry-After, pages serve', async (t) => {
  if (!root) return t.skip('an open file stays writable to its process unless immutable (root)');
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-outage-'));
  const file = join(dir, 'hamlet.db');
  const h = await startTestHamlet(
    { DATABASE_URL: `sqlite:${file}`, HAMLET_WEBHOOK_DISPATCH: '0', HAMLET_MAIL_DISPATCH: '0' },
    { keepDatabase: true, demo: true },
  );
  const key = (await freshDemoAgentKey(h.store, h.services.agents))!.key;
  const paths = [file, `${file}-wal`];
  const immutable = (on: boolean) =>
    execFileSync('chattr', [on ? '+i' : '-i', ...paths], { stdio: 'ignore' });
  const auth = { authorization: `Bearer ${key}` };
  const restWrite = () =>
    raw(h.hostUrl('localhost', '/c/acme/api/v1/topics'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        category: 'general',
        title: 'Written while the disk refused it',
        body: 'This body waits for a writable disk.',
      }),
    });
  const mcpWrite = async () => {
    const res = await rpc(
      h.hostUrl('localhost', '/c/acme/api/mcp'),
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'create_topic',
          arguments: {
            category: 'general',
            title: 'Written over MCP while the disk refused it',
            body: 'This body waits for a writable disk too.',
          },
        },
      },
      { ...auth, accept: 'application/json, text/event-stream' },
    );
    return res.json();
  };
  let undone = false;
  try {
    immutable(true);
    const rest = await restWrite();
    assert.equal(rest.status, 503, rest.text);
    assert.equal(rest.headers['retry-after'], '2');
    assert.equal(rest.json().code, 'unavailable');
    assert.match(rest.json().detail, /cannot take writes right now/);

    const tool = await mcpWrite();
    assert.equal(tool.result.isError, true);
    assert.equal(tool.result.structuredContent.code, 'unavailable');
    assert.equal(tool.result.structuredContent.retry_after_ms, 2000);

    const page = await raw(h.hostUrl('localhost', '/c/acme/'));
    assert.equal(page.status, 200, 'pages serve');

    immutable(false);
    undone = true;
    assert.equal((await restWrite()).status, 201, 'the same write succeeds once writable');
    assert.equal((await mcpWrite()).result.isError, false);
  } finally {
    if (!undone) immutable(false);
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a SQLite file in a read-only folder: opening it says the folder is read-only, not "unable to open"', async (t) => {
  if (!root) return t.skip('needs chattr (root): mode bits do not stop root');
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-outage-'));
  const file = join(dir, 'hamlet.db');
  new BetterSqlite3(file).close(); // a database file, without its -wal and -shm
  execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
  try {
    await assert.rejects(
      openStore(`sqlite:${file}`),
      new RegExp(`its folder ${dir} is read-only to this user .*-wal and -shm`),
    );
  } finally {
    execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
});
