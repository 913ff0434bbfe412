// `hamlet oauth …` as an operator runs it: the trust policy shows in the server metadata (no
// registration endpoint unless any app may connect), registered apps are listed and removed, and
// connections are listed (disconnecting is the same domain call as the web's, tested there).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { raw } from '../mcp/http-client.ts';
import { runCli } from '../helpers/cli.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-oauthcli-'));
const databaseUrl = `sqlite:${join(dir, 'hamlet.db')}`;
let h: TestHamlet;
const hamlet = (...args: string[]) => runCli(args, { DATABASE_URL: databaseUrl });

before(async () => {
  h = await startTestHamlet({ DATABASE_URL: databaseUrl }, { keepDatabase: true });
  await h.store.communities.create({ slug: 'acme', name: 'Acme', visibility: 'public' });
});
after(async () => {
  await h.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('oauth policy, client add/list/remove, grants', async () => {
  const metadata = async () =>
    (await raw(h.hostUrl('acme.localhost', '/.well-known/oauth-authorization-server'))).json();
  assert.ok(
    (await metadata()).registration_endpoint,
    'any app may connect by default, so dynamic registration is offered',
  );
  const set = await hamlet(
    'oauth',
    'policy',
    '--community',
    'acme',
    '--mode',
    'domains',
    '--domains',
    'claude.ai, chatgpt.com',
  );
  assert.equal(set.code, 0, set.err);
  assert.equal(set.out.trim(), 'acme: domains (claude.ai, chatgpt.com)');
  assert.equal((await metadata()).registration_endpoint, undefined);

  const added = await hamlet(
    'oauth',
    'client',
    'add',
    '--community',
    'acme',
    '--name',
    'In-house bot',
    '--redirect-uri',
    'https://bot.example.org/cb',
  );
  assert.equal(added.code, 0, added.err);
  const clientId = /client_id (hmlt_client_\w+)/.exec(added.out)![1]!;
  assert.match(
    (await hamlet('oauth', 'client', 'list', '--community', 'acme')).out,
    new RegExp(`${clientId}\\s+registered\\s+In-house bot`),
  );
  assert.equal(
    (await hamlet('oauth', 'client', 'remove', '--community', 'acme', '--client-id', clientId))
      .code,
    0,
  );
  assert.match(
    (await hamlet('oauth', 'grants', '--community', 'acme')).out,
    /No apps are connected to "acme"/,
  );
});

test('oauth rotate-key: a new signing key, the previous kept; forgetting a key whose tokens may be valid is refused with what to do', async () => {
  for (let i = 0; i < 2; i++) {
    const rotated = await hamlet('oauth', 'rotate-key');
    assert.equal(rotated.code, 0, rotated.err);
    assert.match(rotated.out, /Access tokens are now signed with key \S+\./);
  }
  const again = await hamlet('oauth', 'rotate-key');
  assert.equal(again.code, 1);
  assert.match(again.err, /too new to replace.*--revoke-previous/);
  const revoked = await hamlet('oauth', 'rotate-key', '--revoke-previous');
  assert.equal(revoked.code, 0, revoked.err);
  assert.match(revoked.out, /Forgotten: /);
  const jwks = (await raw(h.hostUrl('acme.localhost', '/oauth/jwks'))).json();
  assert.equal(jwks.keys.length, 1);
  assert.equal(jwks.keys[0].kid, /signed with key (\S+)\./.exec(revoked.out)![1]);
});
