// A private community does not exist for the OAuth faces without a credential of its own, on both
// engines: every OAuth URL of it (metadata, connector, registration, token, revocation, keys, the
// consent page; path form and host form) answers byte for byte as the same URL of a community that
// does not exist, to a visitor, to a signed-in non-member, and to credentials of another community.
// Its members still connect an app: signed in, the consent page is theirs, the code they approve is
// exchanged at its token endpoint, and the token reaches its connector.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet } from '../app/helpers.ts';
import { raw, type RawResponse } from '../mcp/http-client.ts';
import { addPerson } from '../oauth/helpers.ts';
import { eachEngine } from './engines.ts';

type Probe = { method: string; path: string; type?: string; body?: string };

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const CHALLENGE = createHash('sha256').update('v'.repeat(50)).digest('base64url');

/** Every OAuth URL of a community at `base` ('' on its host, '/c/<slug>' in the path form). */
function probes(wellKnownBase: string, base: string, clientId: string): Probe[] {
  const authorize = `response_type=code&client_id=${clientId}&redirect_uri=${encodeURIComponent('http://127.0.0.1/callback')}&code_challenge=${CHALLENGE}&code_challenge_method=S256`;
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  return [
    { method: 'GET', path: `/.well-known/oauth-protected-resource${wellKnownBase}/mcp` },
    { method: 'OPTIONS', path: `/.well-known/oauth-protected-resource${wellKnownBase}/mcp` },
    { method: 'GET', path: `/.well-known/oauth-authorization-server${wellKnownBase}` },
    { method: 'POST', path: `${base}/mcp`, type: JSON_TYPE, body: list },
    { method: 'GET', path: `${base}/mcp` },
    { method: 'OPTIONS', path: `${base}/mcp` },
    {
      method: 'POST',
      path: `${base}/oauth/register`,
      type: JSON_TYPE,
      body: JSON.stringify({ client_name: 'Tool', redirect_uris: ['http://127.0.0.1/cb'] }),
    },
    { method: 'POST', path: `${base}/oauth/register`, type: JSON_TYPE, body: '{' },
    { method: 'GET', path: `${base}/oauth/jwks` },
    { method: 'POST', path: `${base}/oauth/token`, type: FORM, body: '' },
    { method: 'POST', path: `${base}/oauth/token`, type: JSON_TYPE, body: '{}' },
    {
      method: 'POST',
      path: `${base}/oauth/token`,
      type: FORM,
      body: `grant_type=authorization_code&code=hmlt_ac_x&client_id=${clientId}&code_verifier=${'v'.repeat(50)}`,
    },
    {
      method: 'POST',
      path: `${base}/oauth/token`,
      type: FORM,
      body: `grant_type=refresh_token&refresh_token=hmlt_rt_x&client_id=${clientId}`,
    },
    { method: 'POST', path: `${base}/oauth/revoke`, type: FORM, body: `token=x&client_id=x` },
    { method: 'GET', path: `${base}/oauth/authorize?${authorize}` },
    { method: 'GET', path: `${base}/oauth/authorize?client_id=%00` },
    { method: 'POST', path: `${base}/oauth/authorize`, type: FORM, body: authorize },
  ];
}

eachEngine('a private community is an unknown one to the OAuth faces', async (engine) => {
  const h = await startTestHamlet({
    ...engine.env,
    HAMLET_OAUTH_ALLOW_PRIVATE_CLIENTS: '1',
    // Every probe comes from one address: its budget is not what this test is about.
    HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
  });
  try {
    const system = systemActor('test');
    await h.services.communities.create(system, {
      slug: 'vault',
      name: 'Vault of Secrets',
      visibility: 'private',
    });
    await h.services.communities.create(system, { slug: 'open', name: 'Open' });
    const vault = (await h.store.communities.getBySlug('vault'))!;
    const open = (await h.store.communities.getBySlug('open'))!;
    await h.services.categories.create(system, vault, { name: 'Support' });
    const tool = (await h.services.oauth.clients.register(vault, {
      client_name: 'Tool',
      redirect_uris: ['http://127.0.0.1/callback'],
    })) as { client_id: string };

    const send = (host: string, p: Probe, headers: Record<string, string> = {}) =>
      raw(h.hostUrl(host, p.path), {
        method: p.method,
        headers: { ...(p.type ? { 'content-type': p.type } : {}), ...headers },
        body: p.body,
      });
    const same = (a: RawResponse, b: RawResponse, what: string) => {
      assert.equal(a.status, b.status, `${what}: ${a.status} vs ${b.status}\n${a.text}`);
      assert.equal(a.text, b.text, what);
    };

    // Who has no credential of vault: a visitor, a signed-in person of no community of it, and an
    // access token and agent key of another community.
    const outsider = await addPerson(h, open, 'Otto', 'member');
    const outsiderSession = await h.services.accounts.createWebSession(outsider.personId);
    const outsiders: Array<[string, Record<string, string>]> = [
      ['a visitor', {}],
      ['a signed-in non-member', { cookie: `hamlet_session=${outsiderSession.token}` }],
      ['a key that is not one', { authorization: `Bearer hmlt_live_${'a'.repeat(40)}` }],
      [
        'a token of another community',
        { authorization: `Bearer ${await tokenFor(h, 'open', open, outsider)}` },
      ],
    ];
    for (const [who, headers] of outsiders) {
      for (const [vaultHost, nowhereHost, wellKnown, base] of [
        ['localhost', 'localhost', '/c/vault', '/c/vault'],
        ['vault.localhost', 'nowhere.localhost', '', ''],
      ] as const) {
        const nowhereProbes = probes(
          wellKnown.replace('vault', 'nowhere'),
          base.replace('vault', 'nowhere'),
          tool.client_id,
        );
        for (const [i, p] of probes(wellKnown, base, tool.client_id).entries()) {
          const what = `${who}: ${p.method} ${vaultHost}${p.path}`;
          same(
            await send(vaultHost, p, headers),
            await send(nowhereHost, nowhereProbes[i]!, headers),
            what,
          );
        }
      }
    }
    assert.equal(
      (await h.store.oauth.listClients(vault.id)).length,
      1,
      'nobody outside registered a client in vault',
    );

    // A member, signed in on the apex, connects an app in the path form.
    const member = await addPerson(h, vault, 'Mira', 'member');
    const session = await h.services.accounts.createWebSession(member.personId);
    const cookie = { cookie: `hamlet_session=${session.token}` };
    const apex = (path: string) => h.hostUrl('localhost', path);
    const metadata = await raw(apex('/.well-known/oauth-protected-resource/c/vault/mcp'), {
      headers: cookie,
    });
    assert.equal(metadata.status, 200, 'a member sees the metadata');
    assert.equal(metadata.json().resource, apex('/c/vault/mcp'));
    const query = `response_type=code&client_id=${tool.client_id}&redirect_uri=${encodeURIComponent('http://127.0.0.1/callback')}&scope=post:create&code_challenge=${CHALLENGE}&code_challenge_method=S256&state=s1`;
    const consent = await raw(apex(`/c/vault/oauth/authorize?${query}`), { headers: cookie });
    assert.equal(consent.status, 200, consent.text);
    assert.match(consent.text, /Connect Tool/);
    const approved = await raw(apex('/c/vault/oauth/authorize'), {
      method: 'POST',
      headers: { ...cookie, 'content-type': FORM },
      body: `${query}&decision=allow&grant=post:create&_csrf=${encodeURIComponent(session.csrfToken)}`,
    });
    assert.equal(approved.status, 303, approved.text);
    const code = new URL(approved.headers.location!).searchParams.get('code')!;
    // The app holds no cookie: the code it was given is its credential at the token endpoint.
    const tokens = await raw(apex('/c/vault/oauth/token'), {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: `grant_type=authorization_code&code=${code}&client_id=${tool.client_id}&redirect_uri=${encodeURIComponent('http://127.0.0.1/callback')}&code_verifier=${'v'.repeat(50)}`,
    });
    assert.equal(tokens.status, 200, tokens.text);
    const { access_token, refresh_token } = tokens.json();
    const call = (host: string, path: string, token: string) =>
      raw(h.hostUrl(host, path), {
        method: 'POST',
        headers: {
          'content-type': JSON_TYPE,
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_categories', arguments: {} },
        }),
      });
    const listed = await call('localhost', '/c/vault/mcp', access_token);
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.json().result.isError, false, listed.text);
    // The refresh token is the app's credential for refreshing and for disconnecting.
    const refreshed = await raw(apex('/c/vault/oauth/token'), {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: `grant_type=refresh_token&refresh_token=${refresh_token}&client_id=${tool.client_id}`,
    });
    assert.equal(refreshed.status, 200, refreshed.text);
    const revoked = await raw(apex('/c/vault/oauth/revoke'), {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: `token=${refreshed.json().refresh_token}&client_id=${tool.client_id}`,
    });
    assert.equal(revoked.status, 200, revoked.text);
    // A revoked token is no credential: vault is unknown to it again.
    same(
      await call('localhost', '/c/vault/mcp', access_token),
      await call('localhost', '/c/nowhere/mcp', access_token),
      'the revoked token at the connector',
    );
  } finally {
    await h.stop();
  }
});

/** An access token of `person` (a member) for the public community `slug`, in the path form. */
async function tokenFor(
  h: Awaited<ReturnType<typeof startTestHamlet>>,
  slug: string,
  community: { id: string },
  person: { personId: string; name: string },
): Promise<string> {
  const site = (await h.services.oauth.siteFor(`localhost:${h.port}`, slug))!;
  const { client_id } = (await h.services.oauth.clients.register(site.community, {
    client_name: 'Other',
    redirect_uris: ['http://127.0.0.1/callback'],
  })) as { client_id: string };
  const checked = await h.services.oauth.authorization.check(site, {
    response_type: 'code',
    client_id,
    redirect_uri: 'http://127.0.0.1/callback',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  });
  assert.ok(checked.ok && community.id === site.community.id);
  const actor = {
    kind: 'person' as const,
    personId: person.personId,
    displayName: person.name,
    roles: await h.services.auth.rolesOf(person.personId),
  };
  const code = new URL(
    await h.services.oauth.authorization.approve(checked.request, actor, ['post:create']),
  ).searchParams.get('code')!;
  const tokens = await h.services.oauth.tokens.token(site, {
    grant_type: 'authorization_code',
    code,
    client_id,
    redirect_uri: 'http://127.0.0.1/callback',
    code_verifier: 'v'.repeat(50),
  });
  return tokens.access_token;
}
