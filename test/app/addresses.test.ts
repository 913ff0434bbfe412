// The addresses Hamlet hands out, as a newcomer and an operator meet them: an IP-literal host is the
// apex (the network server and the directory answer on 127.0.0.1 and [::1], and the path form
// works there); locally everything listed or printed is the path form on the port served (the apex
// page, server.json, network results, `hamlet agent create`); with HAMLET_PUBLIC_ORIGIN every link
// is on the public origin, whatever port the instance itself listens on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.ts';
import { runCli } from '../helpers/cli.ts';
import { serveProcess } from '../helpers/serve.ts';
import { INITIALIZE, raw, rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

let local: TestHamlet;
let behindProxy: TestHamlet;
const dir = mkdtempSync(join(tmpdir(), 'hamlet-addresses-'));
const databaseUrl = `sqlite:${join(dir, 'hamlet.db')}`;
before(async () => {
  local = await startTestHamlet({ DATABASE_URL: databaseUrl }, { demo: true });
  behindProxy = await startTestHamlet(
    { HAMLET_PUBLIC_ORIGIN: 'https://forum.example.test', HAMLET_TRUST_PROXY: '1' },
    { demo: true },
  );
});
after(async () => {
  await local?.stop();
  await behindProxy?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name, arguments: args },
});

test('an IP-literal host is the apex: the network server, the directory, and the path form answer there', async () => {
  const ip = `http://127.0.0.1:${local.port}`;
  for (const host of [
    `127.0.0.1:${local.port}`,
    `[::1]:${local.port}`,
    '192.168.1.20',
    `[fe80::1]:${local.port}`,
  ]) {
    const init = await rpc(`${ip}/api/mcp`, INITIALIZE(), { host });
    assert.equal(init.status, 200, host);
    assert.equal(init.json().result.serverInfo.title, 'Hamlet network', host);
    const page = await raw(`${ip}/`, { headers: { host } });
    assert.equal(page.status, 200, host);
    assert.match(page.text, /<h1>Hamlet communities<\/h1>/);
  }
  const acme = await rpc(`${ip}/c/acme/api/mcp`, INITIALIZE());
  assert.equal(acme.status, 200);
  assert.equal(acme.json().result.serverInfo.title, 'Hamlet: acme');
  assert.equal((await raw(`${ip}/c/acme/`)).status, 200);
});

test('the default listener answers on [::1] and 127.0.0.1 alike, the path form included', async () => {
  assert.equal(loadConfig({}).host, '::', 'HOST defaults to every address of both families');
  const both = await startTestHamlet({ HOST: '::' }, { demo: true });
  try {
    for (const origin of [`http://[::1]:${both.port}`, `http://127.0.0.1:${both.port}`]) {
      const acme = await rpc(`${origin}/c/acme/api/mcp`, INITIALIZE());
      assert.equal(acme.status, 200, origin);
      assert.equal(acme.json().result.serverInfo.title, 'Hamlet: acme', origin);
      assert.equal((await raw(`${origin}/c/acme/`)).status, 200, origin);
      assert.equal((await raw(`${origin}/readyz`)).status, 200, origin);
    }
  } finally {
    await both.stop();
  }
});

test('locally, the apex lists every community in the path form on the port served', async () => {
  const pathForm = `http://localhost:${local.port}/c/acme`;
  const page = await raw(`http://127.0.0.1:${local.port}/`);
  assert.match(page.text, new RegExp(`MCP: <code>${pathForm}/api/mcp</code>`));
  assert.doesNotMatch(page.text, /acme\.localhost/);

  const served = (await raw(`http://127.0.0.1:${local.port}/api/mcp/server.json`)).json();
  assert.equal(served.remotes[0].url, `http://localhost:${local.port}/c/{community}/api/mcp`);

  const network = `http://127.0.0.1:${local.port}/api/mcp`;
  const found = (await rpc(network, call('find_community', { subject: 'webhook' }))).json().result;
  assert.equal(found.isError, false, JSON.stringify(found));
  assert.ok(JSON.stringify(found.structuredContent).includes(`"${pathForm}/api/mcp"`));
  const hits = (await rpc(network, call('search_network', { query: 'webhook signature' }))).json()
    .result.structuredContent;
  const urls = JSON.stringify(hits).match(/"url":"[^"]+"/g) ?? [];
  assert.ok(urls.length > 0);
  for (const url of urls) assert.ok(url.startsWith(`"url":"${pathForm}/t/`), url);

  // The docs an agent reads name the same addresses.
  const llms = (await raw(`http://127.0.0.1:${local.port}/llms`)).text;
  assert.match(llms, new RegExp(`http://localhost:${local.port}/c/<slug>/api/mcp`));
});

test('with HAMLET_PUBLIC_ORIGIN, links and listings are on the public origin, never on the port of the instance', async () => {
  const at = (host: string, path: string) =>
    raw(`http://127.0.0.1:${behindProxy.port}${path}`, { headers: { host } });
  const hits = (
    await rpc(
      `http://127.0.0.1:${behindProxy.port}/api/mcp`,
      call('search_network', { query: 'webhook signature' }),
      { host: '127.0.0.1', 'x-forwarded-host': 'forum.example.test' },
    )
  ).json().result.structuredContent;
  const urls = JSON.stringify(hits).match(/"url":"[^"]+"/g) ?? [];
  assert.ok(urls.length > 0);
  for (const url of urls)
    assert.ok(url.startsWith('"url":"https://acme.forum.example.test/t/'), url);
  assert.ok(!JSON.stringify(hits).includes(String(behindProxy.port)));

  const page = await at('forum.example.test', '/');
  assert.match(page.text, /MCP: <code>https:\/\/acme\.forum\.example\.test\/api\/mcp<\/code>/);
  const served = (await at('forum.example.test', '/api/mcp/server.json')).json();
  assert.equal(served.remotes[0].url, 'https://{community}.forum.example.test/api/mcp');
  assert.equal(served.websiteUrl, 'https://forum.example.test');
});

test('`hamlet agent create` prints the MCP URL of PORT or of the public origin, and says which', async () => {
  const env = { DATABASE_URL: databaseUrl, PORT: String(local.port) };
  const made = await runCli(['agent', 'create', '--community', 'acme', '--name', 'printer'], env);
  assert.equal(made.code, 0, made.err);
  assert.match(
    made.out,
    new RegExp(
      `MCP URL:\\s+http://localhost:${local.port}/c/acme/api/mcp\\s+\\(a server on this machine at PORT=${local.port};`,
    ),
  );
  const published = await runCli(['agent', 'create', '--community', 'acme', '--name', 'pub'], {
    ...env,
    HAMLET_PUBLIC_ORIGIN: 'https://forum.example.test',
  });
  assert.equal(published.code, 0, published.err);
  assert.match(
    published.out,
    /MCP URL:\s+https:\/\/acme\.forum\.example\.test\/api\/mcp\s+\(from HAMLET_PUBLIC_ORIGIN\)/,
  );
});

test('with HAMLET_PUBLIC_ORIGIN, a community that claimed a custom domain is linked there', async () => {
  const acme = (await behindProxy.store.communities.getBySlug('acme'))!;
  await behindProxy.store.communities.update(acme.id, { customDomain: 'help.acme.test' });
  for (const listener of behindProxy.services.communities.onChange) listener(acme.id);
  const found = await rpc(
    `http://127.0.0.1:${behindProxy.port}/api/mcp`,
    call('search_network', { query: 'webhook signature' }),
    { host: 'forum.example.test' },
  );
  const urls = JSON.stringify(found.json().result.structuredContent).match(/"url":"[^"]+"/g) ?? [];
  assert.ok(urls.length > 0);
  for (const url of urls) assert.ok(url.startsWith('"url":"https://help.acme.test/t/'), url);
});

test('`hamlet serve` with PORT=0 logs the port the system picked, and it answers there', async () => {
  const { child, start } = await serveProcess({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  try {
    const printed = /^http:\/\/localhost:(\d+)\/api\/mcp$/.exec(start.mcp_network);
    assert.ok(printed && Number(printed[1]) > 0, JSON.stringify(start));
    assert.equal(start.mcp_community, `http://localhost:${printed[1]}/c/<slug>/api/mcp`);
    assert.equal(start.url, `http://localhost:${printed[1]}`);
    const init = await rpc(`http://127.0.0.1:${printed[1]}/api/mcp`, INITIALIZE());
    assert.equal(init.json().result.serverInfo.title, 'Hamlet network');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});
