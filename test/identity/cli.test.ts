// The identity CLI as an operator runs it, and what it prints working against a live server:
// agent create prints a key that the MCP server accepts; key revoke retires it; scopes refuse writes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from '../mcp/http-client.ts';
import { runCli } from '../helpers/cli.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-idcli-'));
const databaseUrl = `sqlite:${join(dir, 'hamlet.db')}`;
let h: TestHamlet;

const hamlet = (...args: string[]) => runCli(args, { DATABASE_URL: databaseUrl });

before(async () => {
  h = await startTestHamlet({ DATABASE_URL: databaseUrl }, { keepDatabase: true });
  await h.store.communities.create({ slug: 'acme', name: 'Acme', visibility: 'public' });
  await h.store.community((await h.store.communities.getBySlug('acme'))!.id).categories.create({ slug: 'support', name: 'Support', kind: 'discussion' });
});
after(async () => {
  await h.stop();
  rmSync(dir, { recursive: true, force: true });
});

const call = (key: string, name: string, args: Record<string, unknown>) =>
  rpc(h.hostUrl('acme.localhost', '/api/mcp'), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { authorization: `Bearer ${key}` });

test('agent create prints the agent id and a key the server accepts; its scopes are enforced', async () => {
  const made = await hamlet('agent', 'create', '--community', 'acme', '--name', 'reader-bot', '--scopes', 'post:create');
  assert.equal(made.code, 0, made.err);
  const key = made.out.match(/hmlt_live_[A-Za-z0-9]{32,}/)?.[0];
  assert.ok(key, made.out);
  assert.match(made.out, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, 'the agent id is printed');
  assert.equal((await call(key, 'list_categories', {})).json().result.isError, false);
  const refused = (await call(key, 'create_topic', { category: 'support', title: 'A question from the CLI agent', body: 'Some body that is long enough.' })).json().result;
  assert.equal(refused.structuredContent.code, 'forbidden');

  const listed = await hamlet('key', 'list', '--community', 'acme');
  assert.equal(listed.code, 0, listed.err);
  assert.ok(listed.out.includes(key.slice(0, 14)), 'keys are listed by prefix');
  assert.ok(!listed.out.includes(key), 'never the whole key');

  const revoked = await hamlet('key', 'revoke', '--community', 'acme', '--prefix', key.slice(0, 14));
  assert.equal(revoked.code, 0, revoked.err);
  const after = (await call(key, 'list_categories', {})).json().result;
  assert.equal(after.structuredContent.code, 'unauthorized');
  assert.match(after.structuredContent.error, /revoked/);
});

test('bad input exits non-zero with what to fix', async () => {
  const unknown = await hamlet('agent', 'create', '--community', 'nowhere', '--name', 'x');
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.err, /nowhere/);
  const badScope = await hamlet('agent', 'create', '--community', 'acme', '--name', 'y', '--scopes', 'everything');
  assert.notEqual(badScope.code, 0);
  assert.match(badScope.err, /scope/i);
});
