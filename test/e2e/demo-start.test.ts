// The README's start command path: `hamlet serve --demo` creates the demo once, prints where to
// connect (the path form on the port served, nothing an MCP client cannot resolve), a fresh agent
// key that works and the demo administrator's e-mail and fresh password, which sign in to the web
// and open acme's administration; the next start prints a new key and password and retires the old.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from '../mcp/http-client.ts';
import { WebClient } from '../web/client.ts';
import { freePort, serveProcess } from '../helpers/serve.ts';

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

test(
  'serve --demo prints a working agent key and administrator password, replaced at the next start',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hamlet-demo-'));
    const port = await freePort();
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
    };
    // The path form the banner prints first: reachable without resolving acme.localhost.
    const url = `http://127.0.0.1:${port}/c/acme/api/mcp`;
    const listCategories = (key: string) =>
      rpc(
        url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_categories', arguments: {} },
        },
        { authorization: `Bearer ${key}` },
      );
    // Whatever fails, no server is left running (it would hold the test process open).
    const started: ChildProcess[] = [];
    try {
      const first = await serveProcess(env, { demo: true, started });
      const key1 = first.banner.match(/agent key:\s+(hmlt_live_[A-Za-z0-9]{32,})/)?.[1];
      assert.ok(key1, first.banner);
      assert.match(
        first.banner,
        new RegExp(`MCP \\(acme\\):\\s+http://localhost:${port}/c/acme/api/mcp`),
      );
      assert.doesNotMatch(first.banner, /acme\.localhost/);
      const admin1 = printedAdmin(first.banner, port);
      assert.equal(await signsIn(port, admin1), true);
      const ok = (await listCategories(key1)).json().result;
      assert.equal(ok.isError, false);
      assert.ok(ok.structuredContent.categories.some((c: { slug: string }) => c.slug === 'docs'));
      await stop(first.child);

      const second = await serveProcess(env, { demo: true, started });
      const key2 = second.banner.match(/agent key:\s+(hmlt_live_[A-Za-z0-9]{32,})/)?.[1];
      assert.ok(key2 && key2 !== key1);
      assert.equal((await listCategories(key2)).json().result.isError, false);
      const old = (await listCategories(key1)).json().result;
      assert.equal(old.structuredContent.code, 'unauthorized');
      const admin2 = printedAdmin(second.banner, port);
      assert.equal(admin2.email, admin1.email);
      assert.notEqual(admin2.password, admin1.password);
      assert.equal(await signsIn(port, admin1), false, 'the previous password no longer works');
      assert.equal(await signsIn(port, admin2), true);
      await stop(second.child);
    } finally {
      for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

type Admin = { email: string; password: string };

/** The sign-in line of the banner: where, as whom, with which password. */
function printedAdmin(banner: string, port: number): Admin {
  const m = new RegExp(
    `sign in:\\s+http://localhost:${port}/c/acme/signin\\s+e-mail (\\S+)\\s+password (\\S+)`,
  ).exec(banner);
  assert.ok(m, banner);
  return { email: m[1]!, password: m[2]! };
}

/** Signs in where the banner says and opens acme's administration, as a person in a browser would. */
async function signsIn(port: number, admin: Admin): Promise<boolean> {
  const web = new WebClient(`http://localhost:${port}`);
  await web.get('/c/acme/signin');
  const home = await web.post('/c/acme/signin', { ...admin, next: '/c/acme/admin' });
  if (!/Signed in as/.test(home.text)) return false;
  const page = await web.get('/c/acme/admin');
  assert.equal(page.status, 200);
  assert.match(page.text, /Agents/);
  return true;
}
