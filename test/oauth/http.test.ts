// The OAuth faces over HTTP, without a browser: metadata in the host form and the path form (a
// private community's only to its members), CORS for browser-based clients, the connector's
// challenge and preflight, registration and token endpoint errors in OAuth's own JSON, and the
// consent page's guards (a private community's only for its members signed in on the apex, a bad
// redirect URI shown rather than followed, forms only with their token). Everything a private
// community hides from everyone else is in test/security/oauth-private.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { raw, rpc } from '../mcp/http-client.ts';
import { addPerson } from './helpers.ts';

let h: TestHamlet;
const at = (path: string) => h.hostUrl('square.localhost', path);

before(async () => {
  h = await startTestHamlet({ HAMLET_OAUTH_ALLOW_PRIVATE_CLIENTS: '1' });
  await h.services.communities.create(systemActor('test'), {
    slug: 'vault',
    name: 'Vault',
    visibility: 'private',
  });
  await h.services.communities.create(systemActor('test'), { slug: 'square', name: 'Square' });
});
after(async () => h?.stop());

test('a community publishes its resource and server metadata (a private one to its members only); its connector challenges', async () => {
  const prm = await raw(at('/.well-known/oauth-protected-resource/mcp'));
  assert.equal(prm.status, 200);
  assert.equal(prm.headers['access-control-allow-origin'], '*');
  assert.deepEqual(prm.json().authorization_servers, [
    h.hostUrl('square.localhost', '').replace(/\/$/, ''),
  ]);
  const meta = await raw(at('/.well-known/oauth-authorization-server'));
  assert.equal(meta.json().issuer, prm.json().authorization_servers[0]);
  assert.equal(
    (await raw(at('/.well-known/oauth-authorization-server'), { method: 'OPTIONS' })).status,
    204,
  );

  const challenge = await rpc(at('/mcp'), { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  assert.equal(challenge.status, 401);
  assert.match(challenge.headers['access-control-expose-headers']!, /WWW-Authenticate/);
  const preflight = await raw(at('/mcp'), {
    method: 'OPTIONS',
    headers: { origin: 'https://claude.ai', 'access-control-request-method': 'POST' },
  });
  assert.equal(preflight.status, 204);
  const key = await rpc(
    at('/mcp'),
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { authorization: 'Bearer hmlt_live_0123456789abcdefghijklmnopqrstuvwxyz' },
  );
  assert.equal(key.status, 401);
  assert.match(key.headers['www-authenticate']!, /error="invalid_token"/);
  assert.equal(
    (await raw(h.hostUrl('nowhere.localhost', '/.well-known/oauth-protected-resource/mcp'))).status,
    404,
  );

  // The path form on the apex: its own resource, metadata and challenge; a private community's
  // metadata for its members (signed in on the apex) only.
  const vaultMetadata = h.hostUrl('localhost', '/.well-known/oauth-protected-resource/c/vault/mcp');
  assert.equal((await raw(vaultMetadata)).status, 404);
  const vault = (await h.store.communities.getBySlug('vault'))!;
  const member = await addPerson(h, vault, 'Vera', 'member');
  const memberCookie = {
    cookie: `hamlet_session=${(await h.services.accounts.createWebSession(member.personId)).token}`,
  };
  assert.equal((await raw(vaultMetadata, { headers: memberCookie })).status, 200);
  const pathForm = await raw(
    h.hostUrl('localhost', '/.well-known/oauth-protected-resource/c/square/mcp'),
  );
  assert.equal(pathForm.json().resource, h.hostUrl('localhost', '/c/square/mcp'));
  assert.deepEqual(pathForm.json().authorization_servers, [h.hostUrl('localhost', '/c/square')]);
  assert.equal(
    (await raw(h.hostUrl('localhost', '/.well-known/oauth-authorization-server/c/square'))).json()
      .token_endpoint,
    h.hostUrl('localhost', '/c/square/oauth/token'),
  );
  const pathChallenge = await rpc(h.hostUrl('localhost', '/c/square/mcp'), {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
  });
  assert.equal(pathChallenge.status, 401);
  assert.match(
    pathChallenge.headers['www-authenticate']!,
    new RegExp(
      `resource_metadata="${h.hostUrl('localhost', '/.well-known/oauth-protected-resource/c/square/mcp')}"`,
    ),
  );
});

test('registration and the token endpoint answer in OAuth JSON', async () => {
  const registered = await raw(at('/oauth/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'CLI tool', redirect_uris: ['http://127.0.0.1/callback'] }),
  });
  assert.equal(registered.status, 201);
  assert.equal(registered.json().token_endpoint_auth_method, 'none');
  const bad = await raw(at('/oauth/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['http://evil.example/cb'] }),
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.json().error, 'invalid_redirect_uri');
  const json = await raw(at('/oauth/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(json.json().error, 'invalid_request');
  const noClient = await raw(at('/oauth/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=authorization_code&code=x',
  });
  assert.equal(noClient.status, 401);
  assert.equal(noClient.json().error, 'invalid_client');
  assert.equal(noClient.headers['cache-control'], 'no-store');
  const huge = await raw(at('/oauth/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=refresh_token&refresh_token=${'x'.repeat(20_000)}`,
  });
  assert.equal(huge.status, 413);
});

test('the consent page of a private community: for members signed in on the apex (an unknown address to visitors); a redirect URI that is not registered is shown, never followed; forms need their token', async () => {
  const vault = (await h.store.communities.getBySlug('vault'))!;
  const { client_id } = (await h.services.oauth.clients.register(vault, {
    client_name: 'Tool',
    redirect_uris: ['http://127.0.0.1/callback'],
  })) as { client_id: string };
  const authorize = `/c/vault/oauth/authorize?response_type=code&client_id=${client_id}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`;
  const apex = (path: string) => h.hostUrl('localhost', path);
  const visitor = await raw(apex(authorize));
  assert.equal(visitor.status, 404);
  assert.equal(visitor.text, (await raw(apex(authorize.replace('vault', 'nowhere')))).text);

  const eve = await addPerson(h, vault, 'Eve', 'member');
  const session = await h.services.accounts.createWebSession(eve.personId);
  const cookie = { cookie: `hamlet_session=${session.token}` };
  const shown = await raw(apex(authorize), { headers: cookie });
  assert.equal(shown.status, 400);
  assert.equal(shown.headers.location, undefined);
  assert.match(shown.headers['content-security-policy']!, /frame-ancestors 'none'/);
  assert.match(shown.text, /not one of its registered addresses/);
  const forged = await raw(apex('/c/vault/oauth/authorize'), {
    method: 'POST',
    headers: { ...cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=allow&_csrf=wrong',
  });
  assert.equal(forged.status, 403);
  const crossSite = await raw(apex('/c/vault/account/apps/x/revoke'), {
    method: 'POST',
    headers: {
      ...cookie,
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'cross-site',
    },
    body: `_csrf=${session.csrfToken}`,
  });
  assert.equal(crossSite.status, 403);
  const apps = await raw(apex('/c/vault/admin/apps'), { headers: cookie });
  assert.equal(apps.status, 403, 'a member is not an administrator');
});

/** A member of vault, an app registered there, and the tokens of the grant the member approved. */
async function memberGrant(name: string) {
  const vault = (await h.store.communities.getBySlug('vault'))!;
  const member = await addPerson(h, vault, name, 'member');
  const actor = {
    kind: 'person' as const,
    personId: member.personId,
    displayName: member.name,
    roles: await h.services.auth.rolesOf(member.personId),
  };
  const site = (await h.services.oauth.siteFor(`localhost:${h.port}`, 'vault'))!;
  const { client_id } = (await h.services.oauth.clients.register(vault, {
    client_name: 'Tool',
    redirect_uris: ['http://127.0.0.1/callback'],
  })) as { client_id: string };
  const verifier = 'v'.repeat(50);
  const checked = await h.services.oauth.authorization.check(site, {
    response_type: 'code',
    client_id,
    redirect_uri: 'http://127.0.0.1/callback',
    scope: 'post:create',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: h.hostUrl('localhost', '/c/vault/mcp'),
  });
  assert.ok(checked.ok);
  const code = new URL(
    await h.services.oauth.authorization.approve(checked.request, actor, ['post:create']),
  ).searchParams.get('code')!;
  const tokens = await h.services.oauth.tokens.token(site, {
    grant_type: 'authorization_code',
    code,
    client_id,
    redirect_uri: 'http://127.0.0.1/callback',
    code_verifier: verifier,
  });
  const refresh = () =>
    h.services.oauth.tokens.token(site, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id,
    });
  return { tokens, refresh };
}

test('an app of a member reaches the tools of a private community through the connector (path form)', async () => {
  const { tokens } = await memberGrant('Mira');
  const listed = await rpc(
    h.hostUrl('localhost', '/c/vault/mcp'),
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_categories', arguments: {} },
    },
    { authorization: `Bearer ${tokens.access_token}` },
  );
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.json().result.isError, false);
  // The same token on the community's /api/mcp reads nothing there.
  const api = await rpc(
    h.hostUrl('localhost', '/c/vault/api/mcp'),
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_categories', arguments: {} },
    },
    { authorization: `Bearer ${tokens.access_token}` },
  );
  assert.ok(
    api.status === 404 || api.json().result.structuredContent.code === 'unauthorized',
    api.text,
  );
});

test("an app's session outlives its access token: a refreshed token keeps it; another app's token does not reach it", async () => {
  const url = h.hostUrl('localhost', '/c/vault/mcp');
  const first = await memberGrant('Nia');
  const init = await rpc(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    },
    { authorization: `Bearer ${first.tokens.access_token}` },
  );
  assert.equal(init.status, 200, init.text);
  const session = init.headers['mcp-session-id'];
  assert.ok(session, 'the connector opens a session');
  const list = (token: string) =>
    rpc(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      {
        authorization: `Bearer ${token}`,
        'mcp-session-id': session!,
        'mcp-protocol-version': '2025-11-25',
      },
    );
  const refreshed = await first.refresh();
  assert.notEqual(refreshed.access_token, first.tokens.access_token);
  const after = await list(refreshed.access_token);
  assert.equal(after.status, 200, after.text);
  assert.ok(after.json().result.tools.length > 0);
  const other = await memberGrant('Omar');
  assert.equal(
    (await list(other.tokens.access_token)).status,
    404,
    "another grant's token does not find the session",
  );
});
