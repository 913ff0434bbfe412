// The operator's first community, as the README has it: `hamlet community create ops` and an agent
// key from the CLI, then an agent posts into the default category over MCP at once; the operator
// manages the categories with `hamlet category …` (created, edited, moved, deleted with and without
// --move-to) and the agent sees each change through list_categories.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from '../mcp/http-client.ts';
import { runCli } from '../helpers/cli.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-ops-'));
const databaseUrl = `sqlite:${join(dir, 'hamlet.db')}`;
let h: TestHamlet;
let key: string;

const hamlet = (...args: string[]) => runCli(args, { DATABASE_URL: databaseUrl });
async function ok(...args: string[]): Promise<string> {
  const r = await hamlet(...args);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
  return r.out;
}
async function tool(name: string, args: Record<string, unknown>): Promise<any> {
  const res = await rpc(
    h.hostUrl('localhost', '/c/ops/api/mcp'),
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    { authorization: `Bearer ${key}` },
  );
  return res.json().result;
}
const slugs = async () =>
  (await tool('list_categories', {})).structuredContent.categories.map(
    (c: { slug: string; position: number }) => `${c.position}:${c.slug}`,
  );

before(async () => {
  h = await startTestHamlet({ DATABASE_URL: databaseUrl }, { keepDatabase: true });
});
after(async () => {
  await h.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('a community created with the CLI takes a question in its default category over MCP', async () => {
  const created = await ok('community', 'create', 'ops');
  assert.match(created, /Created public community "ops"/);
  assert.match(created, /the category "general"/);
  const agent = await ok(
    'agent',
    'create',
    '--community',
    'ops',
    '--name',
    'ops-bot',
    '--scopes',
    'topic:create,post:create',
  );
  key = agent.match(/hmlt_live_[A-Za-z0-9]{32,}/)![0];

  const guidelines = await rpc(
    h.hostUrl('localhost', '/c/ops/api/mcp'),
    { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'hamlet://ops/guidelines' } },
    { authorization: `Bearer ${key}` },
  );
  assert.match(JSON.stringify(guidelines.json().result), /Search first/, 'starter guidelines');

  const posted = await tool('create_topic', {
    category: 'general',
    title: 'Where do the nightly backups go?',
    body: 'The first question of a brand new community.',
  });
  assert.equal(posted.isError, false, JSON.stringify(posted));
  assert.equal(posted.structuredContent.status, 'applied');
  assert.equal(posted.structuredContent.topic.category.slug, 'general');
});

test('the operator creates, edits, reorders and deletes categories with `hamlet category`', async () => {
  assert.match(
    await ok(
      'category',
      'create',
      '--community',
      'ops',
      '--name',
      'Runbooks',
      '--kind',
      'knowledge_base',
    ),
    /Created category "runbooks" \(knowledge_base, position 2\)/,
  );
  await ok(
    'category',
    'create',
    '--community',
    'ops',
    '--name',
    'Incidents',
    '--approval',
    'approval',
  );
  assert.deepEqual(await slugs(), ['1:general', '2:runbooks', '3:incidents']);

  const moved = await ok('category', 'move', 'incidents', '--community', 'ops', '--position', '1');
  assert.match(moved, /^\s+1 {2}incidents/m);
  assert.deepEqual(await slugs(), ['1:incidents', '2:general', '3:runbooks']);

  await ok(
    'category',
    'edit',
    'incidents',
    '--community',
    'ops',
    '--slug',
    'outages',
    '--name',
    'Outages',
  );
  const queued = await tool('create_topic', {
    category: 'outages',
    title: 'The database went read-only at 03:00',
    body: 'This category queues new topics for a moderator.',
  });
  assert.equal(queued.structuredContent.status, 'pending_approval');
  assert.equal(queued.structuredContent.reason, 'category_policy:outages');

  const full = await hamlet('category', 'delete', 'general', '--community', 'ops');
  assert.equal(full.code, 1);
  assert.match(full.err, /holds 1 topic: say where they go with move_to/);
  assert.match(
    await ok('category', 'delete', 'general', '--community', 'ops', '--move-to', 'outages'),
    /its 1 topic is now in "outages"/,
  );
  assert.match(await ok('category', 'delete', 'runbooks', '--community', 'ops'), /held no topics/);
  assert.deepEqual(await slugs(), ['1:outages']);
  const found = await tool('search_community', {
    query: 'nightly backups',
    filters: { category: 'outages' },
  });
  assert.equal(
    found.structuredContent.results[0]?.category,
    'outages',
    'the index follows the move',
  );
});
