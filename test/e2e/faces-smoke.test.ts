// Every face of a real `hamlet serve --demo` process, on each storage engine, at the addresses its
// start line gives (its demo secrets from the file it names): the community's MCP server with its agent key, the network server on
// 127.0.0.1, REST with the same key, and the web signed in as the printed administrator. CI runs it
// on Node 20 and Node 22 alike (.ci/node22), so it names the Node that ran it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, serveProcess } from '../helpers/serve.ts';
import { postgresFromTemplate, sqliteFromTemplate } from '../helpers/template.ts';
import { INITIALIZE, raw, rpc } from '../mcp/http-client.ts';
import { WebClient } from '../web/client.ts';

async function smoke(databaseUrl: string): Promise<void> {
  const port = await freePort();
  const started: ChildProcess[] = [];
  try {
    const { start, key, password } = await serveProcess(
      { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' },
      { demo: true, started },
    );
    const banner = JSON.stringify(start);
    assert.ok(key, banner);
    const origin = `http://localhost:${port}`;
    const mcp = start.demo?.mcp;
    assert.equal(mcp, `${origin}/c/acme/api/mcp`);

    const found = await rpc(
      mcp,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_community', arguments: { query: 'webhook signature' } },
      },
      { authorization: `Bearer ${key}` },
    );
    assert.equal(found.json().result.isError, false, found.text);
    assert.ok(found.json().result.structuredContent.results.length > 0);

    const network = await rpc(`http://127.0.0.1:${port}/api/mcp`, INITIALIZE());
    assert.equal(network.json().result.serverInfo.title, 'Hamlet network');

    const rest = await raw(`${origin}/c/acme/api/v1/categories`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(rest.status, 200, rest.text);
    assert.ok(rest.json().categories.some((c: { slug: string }) => c.slug === 'docs'));

    const admin = [start.demo?.signin, start.demo?.admin_email, password];
    assert.ok(admin[1] && admin[2], banner);
    const web = new WebClient(origin);
    await web.get('/c/acme/signin');
    const home = await web.post('/c/acme/signin', { email: admin[1]!, password: admin[2]! });
    assert.match(home.text, /Signed in as/);
    const page = await web.get('/c/acme/admin');
    assert.equal(page.status, 200);
  } finally {
    for (const child of started) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

test(`every face of a served demo on SQLite (Node ${process.version})`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-smoke-'));
  try {
    const file = join(dir, 'hamlet.db');
    await sqliteFromTemplate(file, 'demo');
    await smoke(`sqlite:${file}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const pg = await postgresFromTemplate('smoke', 'demo');
test(
  `every face of a served demo on PostgreSQL (Node ${process.version})`,
  { skip: pg.ok || pg.fail ? false : pg.reason },
  async () => {
    if (!pg.ok) return assert.fail(`CI=true but ${pg.reason}`);
    try {
      await smoke(pg.url);
    } finally {
      await pg.drop();
    }
  },
);
