// The README's start command path: `hamlet serve --demo` creates the demo once, says where to
// connect (the path form on the port served, nothing an MCP client cannot resolve; off a terminal
// as its JSON start line), an agent key that works and the demo administrator's e-mail and
// password, which sign in to the web and open acme's administration. They are kept in the data
// folder (mode 0600), named by the start line, never in it: the next start gives the same ones, so
// a configured client keeps working; a key revoked meanwhile is replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from '../mcp/http-client.ts';
import { WebClient } from '../web/client.ts';
import { freePort, serveProcess, type Served } from '../helpers/serve.ts';

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

test(
  'serve --demo prints a working agent key and administrator password that survive a restart',
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
    const kept = join(dir, 'demo-credentials.json');
    // Whatever fails, no server is left running (it would hold the test process open).
    const started: ChildProcess[] = [];
    try {
      const first = await serveProcess(env, { demo: true, started });
      const key1 = first.key!;
      assert.ok(key1?.startsWith('hmlt_live_'), JSON.stringify(first.start));
      assert.equal(first.start.demo?.mcp, `http://localhost:${port}/c/acme/api/mcp`);
      assert.equal(first.start.demo?.agent_key, 'new');
      assert.match(first.start.demo?.credentials_file ?? '', /demo-credentials\.json$/);
      const admin1 = printedAdmin(first, port);
      // The log line names where the secrets are kept, never the secrets.
      assert.doesNotMatch(JSON.stringify(first.start), new RegExp(`${key1}|${admin1.password}`));
      assert.equal(await signsIn(port, admin1), true);
      const ok = (await listCategories(key1)).json().result;
      assert.equal(ok.isError, false);
      assert.ok(ok.structuredContent.categories.some((c: { slug: string }) => c.slug === 'docs'));
      assert.equal(statSync(kept).mode & 0o777, 0o600, 'the kept file is its owner’s alone');
      assert.deepEqual(JSON.parse(readFileSync(kept, 'utf8')), {
        agentKey: key1,
        adminPassword: admin1.password,
      });
      await stop(first.child);

      const second = await serveProcess(env, { demo: true, started });
      assert.equal(second.key, key1, 'the same key after a restart');
      assert.equal(second.start.demo?.agent_key, 'the same as before');
      assert.equal(second.start.demo?.admin_password, 'the same as before');
      assert.equal((await listCategories(key1)).json().result.isError, false, 'and it works');
      const admin2 = printedAdmin(second, port);
      assert.deepEqual(admin2, admin1, 'the same password');
      assert.equal(await signsIn(port, admin1), true);
      await stop(second.child);

      // The kept key revoked meanwhile (here: the file holds one that never worked): a new one.
      writeFileSync(kept, JSON.stringify({ agentKey: 'hmlt_live_revoked', adminPassword: 'x' }));
      const third = await serveProcess(env, { demo: true, started });
      const key3 = third.key!;
      assert.equal(third.start.demo?.agent_key, 'new');
      assert.ok(key3 && key3 !== key1);
      assert.equal((await listCategories(key3)).json().result.isError, false);
      assert.equal(
        (await listCategories(key1)).json().result.structuredContent.code,
        'unauthorized',
        'a new key retires the one before',
      );
      const admin3 = printedAdmin(third, port);
      assert.notEqual(admin3.password, admin1.password);
      assert.equal(await signsIn(port, admin3), true);
      assert.equal(JSON.parse(readFileSync(kept, 'utf8')).agentKey, key3);
      await stop(third.child);
    } finally {
      for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

type Admin = { email: string; password: string };

/** The sign-in the start line gives (where, as whom) with the password kept in the file it names. */
function printedAdmin(served: Served, port: number): Admin {
  const { demo } = served.start;
  assert.equal(demo?.signin, `http://localhost:${port}/c/acme/signin`);
  assert.ok(demo?.admin_email && served.password, JSON.stringify(served.start));
  return { email: demo.admin_email, password: served.password };
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
