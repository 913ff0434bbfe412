// The identity CLI as an operator runs it, and what it prints working against a live server:
// agent create prints a key that the MCP server accepts; key revoke retires it; scopes refuse writes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from '../mcp/http-client.ts';
import { runCli } from '../helpers/cli.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-idcli-'));
const databaseUrl = `sqlite:${join(dir, 'hamlet.db')}`;
let h: TestHamlet;

const hamlet = (...args: string[]) => runCli(args, { DATABASE_URL: databaseUrl });
const hamletWithInput = (stdin: string, ...args: string[]) =>
  runCli(args, { DATABASE_URL: databaseUrl }, stdin);

before(async () => {
  h = await startTestHamlet({ DATABASE_URL: databaseUrl }, { keepDatabase: true });
  await h.store.communities.create({ slug: 'acme', name: 'Acme', visibility: 'public' });
  await h.store
    .community((await h.store.communities.getBySlug('acme'))!.id)
    .categories.create({ slug: 'support', name: 'Support', kind: 'discussion' });
});
after(async () => {
  await h.stop();
  rmSync(dir, { recursive: true, force: true });
});

const call = (key: string, name: string, args: Record<string, unknown>) =>
  rpc(
    h.hostUrl('acme.localhost', '/api/mcp'),
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    { authorization: `Bearer ${key}` },
  );

test('agent create prints the agent id and a key the server accepts; its scopes are enforced', async () => {
  const made = await hamlet(
    'agent',
    'create',
    '--community',
    'acme',
    '--name',
    'reader-bot',
    '--scopes',
    'post:create',
  );
  assert.equal(made.code, 0, made.err);
  const key = made.out.match(/hmlt_live_[A-Za-z0-9]{32,}/)?.[0];
  assert.ok(key, made.out);
  assert.match(
    made.out,
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/,
    'the agent id is printed',
  );
  assert.equal((await call(key, 'list_categories', {})).json().result.isError, false);
  const refused = (
    await call(key, 'create_topic', {
      category: 'support',
      title: 'A question from the CLI agent',
      body: 'Some body that is long enough.',
    })
  ).json().result;
  assert.equal(refused.structuredContent.code, 'forbidden');

  const listed = await hamlet('key', 'list', '--community', 'acme');
  assert.equal(listed.code, 0, listed.err);
  assert.ok(listed.out.includes(key.slice(0, 14)), 'keys are listed by prefix');
  assert.ok(!listed.out.includes(key), 'never the whole key');

  const revoked = await hamlet(
    'key',
    'revoke',
    '--community',
    'acme',
    '--prefix',
    key.slice(0, 14),
  );
  assert.equal(revoked.code, 0, revoked.err);
  const after = (await call(key, 'list_categories', {})).json().result;
  assert.equal(after.structuredContent.code, 'unauthorized');
  assert.match(after.structuredContent.error, /revoked/);
});

test('bad input exits non-zero with what to fix', async () => {
  const unknown = await hamlet('agent', 'create', '--community', 'nowhere', '--name', 'x');
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.err, /nowhere/);
  const badScope = await hamlet(
    'agent',
    'create',
    '--community',
    'acme',
    '--name',
    'y',
    '--scopes',
    'everything',
  );
  assert.notEqual(badScope.code, 0);
  assert.match(badScope.err, /scope/i);
});

test('the approval queue from the CLI: list, approve as a moderator, reject with a reason', async () => {
  assert.equal(
    (
      await hamlet(
        'community',
        'policy',
        '--community',
        'acme',
        '--kind',
        'topic.create',
        '--mode',
        'approval',
      )
    ).code,
    0,
  );
  assert.equal(
    (
      await hamlet(
        'user',
        'create',
        '--email',
        'mod@example.com',
        '--password',
        'a long enough password',
        '--name',
        'Mo Derator',
      )
    ).code,
    0,
  );
  assert.equal(
    (
      await hamlet(
        'member',
        'add',
        '--community',
        'acme',
        '--email',
        'mod@example.com',
        '--role',
        'moderator',
      )
    ).code,
    0,
  );
  const made = await hamlet(
    'agent',
    'create',
    '--community',
    'acme',
    '--name',
    'asker-bot',
    '--scopes',
    'topic:create',
  );
  const key = made.out.match(/hmlt_live_[A-Za-z0-9]{32,}/)![0];
  const ask = async (title: string) =>
    (
      await call(key, 'create_topic', {
        category: 'support',
        title,
        body: 'A body that is long enough to be a question.',
      })
    ).json().result.structuredContent as { status: string; approval_id: string };

  const first = await ask('First queued question for the CLI');
  const second = await ask('Second queued question for the CLI');
  assert.equal(first.status, 'pending_approval');
  const listed = await hamlet('approval', 'list', '--community', 'acme');
  assert.equal(listed.code, 0, listed.err);
  assert.ok(
    listed.out.includes(first.approval_id) && listed.out.includes(second.approval_id),
    listed.out,
  );
  assert.match(listed.out, /"First queued question for the CLI"/);

  const approved = await hamlet(
    'approval',
    'approve',
    '--community',
    'acme',
    '--id',
    first.approval_id,
    '--as',
    'mod@example.com',
  );
  assert.equal(approved.code, 0, approved.err);
  const followed = (await call(key, 'get_approval', { approval_id: first.approval_id })).json()
    .result.structuredContent;
  assert.equal(followed.status, 'applied');
  assert.equal(followed.decided_by.name, 'Mo Derator');
  assert.equal(followed.result.topic.title, 'First queued question for the CLI');

  const rejected = await hamlet(
    'approval',
    'reject',
    '--community',
    'acme',
    '--id',
    second.approval_id,
    '--reason',
    'Please search first: this is answered in the docs.',
  );
  assert.equal(rejected.code, 0, rejected.err);
  const refused = (await call(key, 'get_approval', { approval_id: second.approval_id })).json()
    .result.structuredContent;
  assert.equal(refused.status, 'rejected');
  assert.equal(refused.reason, 'Please search first: this is answered in the docs.');

  const twice = await hamlet(
    'approval',
    'approve',
    '--community',
    'acme',
    '--id',
    first.approval_id,
  );
  assert.notEqual(twice.code, 0, 'an approval is decided once');
});

test('user create takes the password on standard input, so it stays out of the process list', async () => {
  const made = await hamletWithInput(
    'correct horse battery staple\n',
    'user',
    'create',
    '--email',
    'stdin@example.com',
    '--password-stdin',
  );
  assert.equal(made.code, 0, made.err);
  const session = await h.services.accounts.signIn({
    email: 'stdin@example.com',
    password: 'correct horse battery staple',
  });
  assert.ok(session.token);
  const none = await hamlet('user', 'create', '--email', 'nopass@example.com');
  assert.equal(none.code, 2);
  assert.match(none.err, /--password-stdin/);
});

test('member add/remove/list keep the last owner: the operator is told to make another owner first', async () => {
  const acme = '--community=acme';
  for (const email of ['boss@example.com', 'next@example.com'])
    await h.services.accounts.createUser(systemActor('test'), {
      email,
      password: 'long enough pw',
    });
  const community = (await h.store.communities.getBySlug('acme'))!;
  await h.services.accounts.addMember(systemActor('test'), community, {
    email: 'boss@example.com',
    role: 'owner',
  });
  const demote = await hamlet('member', 'add', acme, '--email=boss@example.com', '--role=member');
  assert.equal(demote.code, 1, demote.out);
  assert.match(demote.err, /last owner of "acme": make another member an owner first/);
  assert.equal(
    (await hamlet('member', 'add', acme, '--email=next@example.com', '--role=owner')).code,
    0,
  );
  const removed = await hamlet('member', 'remove', acme, '--email=boss@example.com');
  assert.equal(removed.code, 0, removed.err);
  assert.match(removed.out, /boss@example\.com is no longer a member of "acme"/);
  const listed = await hamlet('member', 'list', acme);
  assert.equal(listed.code, 0, listed.err);
  assert.match(listed.out, /^owner\s+next@example\.com/m);
  assert.doesNotMatch(listed.out, /boss@example\.com/);
});
