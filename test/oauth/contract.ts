// The authorization server's rules against a real engine (sqlite.test.ts, postgres.test.ts): what an
// authorization request must carry, codes used once, PKCE, scopes capped by the role, the client
// trust policy and dynamic registration, connected apps and who may disconnect them, token expiry
// and audience, keys surviving a restart, refresh narrowing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { loadConfig } from '../../src/config/config.ts';
import { systemActor, type PersonActor } from '../../src/domain/actor.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { OAuthError } from '../../src/domain/oauth/errors.ts';
import { OAuthService } from '../../src/domain/oauth/service.ts';
import type { OAuthSite } from '../../src/domain/oauth/site.ts';
import type { Role } from '../../src/domain/vocabulary.ts';
import { createSearchIndex } from '../../src/search/engine.ts';
import { createServices, type Services } from '../../src/services.ts';
import type { OpenedDatabase } from '../../src/store/open.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { Community } from '../../src/store/types.ts';
import { startClientHost, type ClientHost } from './helpers.ts';

export type StoreFactory = { open: () => Promise<OpenedDatabase>; cleanup?: () => Promise<void> };

const config = loadConfig({
  HAMLET_BASE_DOMAIN: 'hamlet.test',
  HAMLET_OAUTH_ALLOW_PRIVATE_CLIENTS: '1',
});
const system = systemActor('test');

function oauthError(code: string, message?: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof OAuthError, `expected OAuthError, got ${String(err)}`);
    assert.equal(err.error, code, err.description);
    if (message) assert.match(err.description, message);
    return true;
  };
}

export function defineOAuthContract(engine: string, factory: StoreFactory): void {
  describe(`OAuth contract (${engine})`, () => {
    let store: Store;
    let s: Services;
    let host: ClientHost;
    let nowMs = Date.parse('2026-05-01T12:00:00.000Z');
    const clock = () => new Date(nowMs);

    before(async () => {
      const opened = await factory.open();
      store = opened.store;
      s = createServices({
        store,
        searchIndex: createSearchIndex(opened.db, opened.dialect),
        config,
        clock,
      });
      host = await startClientHost('Unit Assistant');
    });
    after(async () => {
      await host?.close();
      await store?.close();
      await factory.cleanup?.();
    });

    async function site(visibility: 'public' | 'private' = 'public'): Promise<OAuthSite> {
      const slug = `c-${randomBytes(4).toString('hex')}`;
      await s.communities.create(system, { slug, name: slug, visibility });
      const community = (await store.communities.getBySlug(slug))!;
      await s.categories.create(system, community, { name: 'Support' });
      return { community, issuer: `http://${slug}.hamlet.test:8787` };
    }

    async function person(community: Community, role?: Role): Promise<PersonActor> {
      const email = `p-${randomBytes(4).toString('hex')}@example.test`;
      const p = await s.accounts.createUser(system, {
        email,
        password: 'a long enough password',
        name: email.slice(0, 10),
      });
      if (role) await s.accounts.addMember(system, community, { email, role });
      return {
        kind: 'person',
        personId: p.id,
        displayName: p.displayName,
        via: 'session',
        roles: await s.auth.rolesOf(p.id),
      };
    }

    const verifier = 'v'.repeat(43) + randomBytes(8).toString('hex');
    const challenge = (v = verifier) => createHash('sha256').update(v).digest('base64url');
    const params = (st: OAuthSite, extra: Record<string, string> = {}) => ({
      response_type: 'code',
      client_id: host.clientId,
      redirect_uri: host.redirectUri,
      scope: 'topic:create post:create approval:decide',
      state: 'st',
      code_challenge: challenge(),
      code_challenge_method: 'S256',
      resource: `${st.issuer}/mcp`,
      ...extra,
    });

    /** Checks, approves with everything offered, and returns the code. */
    async function codeFor(
      st: OAuthSite,
      who: PersonActor,
      extra: Record<string, string> = {},
    ): Promise<string> {
      const checked = await s.oauth.authorization.check(st, params(st, extra));
      assert.ok(checked.ok, JSON.stringify(checked));
      const redirect = new URL(
        await s.oauth.authorization.approve(checked.request, who, [
          'topic:create',
          'post:create',
          'approval:decide',
          'article:write',
        ]),
      );
      assert.equal(redirect.searchParams.get('iss'), st.issuer);
      assert.equal(redirect.searchParams.get('state'), 'st');
      return redirect.searchParams.get('code')!;
    }
    const exchange = (st: OAuthSite, code: string, extra: Record<string, string> = {}) =>
      s.oauth.tokens.token(st, {
        grant_type: 'authorization_code',
        code,
        client_id: host.clientId,
        redirect_uri: host.redirectUri,
        code_verifier: verifier,
        ...extra,
      });

    test('an authorization request needs a known client and its registered redirect URI (shown, never redirected), then PKCE S256 and this resource (redirected back)', async () => {
      const st = await site();
      const shown = async (extra: Record<string, string>, text: RegExp) => {
        const r = await s.oauth.authorization.check(st, params(st, extra));
        assert.ok(!r.ok && 'show' in r, JSON.stringify(r));
        assert.match(r.show, text);
      };
      await shown(
        { redirect_uri: 'https://evil.example/cb' },
        /not one of its registered addresses/,
      );
      // A loopback redirect URI may come on any port, but never with a fragment.
      const port = new URL(host.redirectUri).port;
      await shown({ redirect_uri: `${host.redirectUri}#x` }, /has a fragment/);
      await shown({ redirect_uri: `${host.redirectUri.replace(port, '1')}#` }, /has a fragment/);
      await shown({ client_id: `${host.origin}/missing.json` }, /HTTP 404/);
      await shown({ client_id: 'hmlt_client_unknown' }, /No client/);
      const redirected = async (extra: Record<string, string>, error: string) => {
        const r = await s.oauth.authorization.check(st, params(st, extra));
        assert.ok(!r.ok && 'redirect' in r, JSON.stringify(r));
        const url = new URL(r.redirect);
        assert.equal(url.origin + url.pathname, host.redirectUri);
        assert.equal(url.searchParams.get('error'), error);
        assert.equal(url.searchParams.get('iss'), st.issuer);
      };
      await redirected({ code_challenge_method: 'plain' }, 'invalid_request');
      await redirected({ code_challenge: '' }, 'invalid_request');
      await redirected({ response_type: 'token' }, 'unsupported_response_type');
      await redirected({ resource: 'http://other.hamlet.test:8787/mcp' }, 'invalid_target');
      const upper = await s.oauth.authorization.check(
        st,
        params(st, { resource: `${st.issuer.toUpperCase().replace('HTTP://', 'HTTP://')}/mcp` }),
      );
      assert.ok(upper.ok, 'scheme and host are compared case-insensitively');
    });

    test('a code works once, with its verifier and redirect URI; using it twice revokes the grant', async () => {
      const st = await site();
      const ada = await person(st.community, 'member');
      await assert.rejects(
        exchange(st, await codeFor(st, ada), { code_verifier: 'w'.repeat(50) }),
        oauthError('invalid_grant', /code_verifier/),
      );
      await assert.rejects(
        exchange(st, await codeFor(st, ada), { redirect_uri: `${host.origin}/other` }),
        oauthError('invalid_grant', /redirect_uri/),
      );
      const code = await codeFor(st, ada);
      const tokens = await exchange(st, code);
      await assert.rejects(exchange(st, code), oauthError('invalid_grant', /already used/));
      await assert.rejects(
        s.oauth.tokens.authenticate(st, tokens.access_token),
        oauthError('invalid_token', /revoked/),
      );
      const late = await codeFor(st, ada);
      nowMs += 61_000;
      await assert.rejects(exchange(st, late), oauthError('invalid_grant', /expired/));
    });

    test('scopes are capped by the role: members cannot grant approval:decide, moderators can; private communities take members only', async () => {
      const st = await site();
      const member = await person(st.community, 'member');
      const memberTokens = await exchange(st, await codeFor(st, member));
      assert.equal(memberTokens.scope, 'topic:create post:create');
      const moderator = await person(st.community, 'moderator');
      const modTokens = await exchange(st, await codeFor(st, moderator));
      assert.equal(modTokens.scope, 'topic:create post:create approval:decide');
      const actor = await s.oauth.tokens.authenticate(st, modTokens.access_token);
      assert.deepEqual(actor.client?.scopes, ['topic:create', 'post:create', 'approval:decide']);
      assert.equal(actor.client?.name, 'Unit Assistant');
      // The role shrinks after the grant: the token's scopes shrink with it at the next request.
      await s.accounts.addMember(system, st.community, {
        email: (await store.people.getById(moderator.personId))!.email!,
        role: 'member',
      });
      assert.deepEqual(
        (await s.oauth.tokens.authenticate(st, modTokens.access_token)).client?.scopes,
        ['topic:create', 'post:create'],
      );

      const priv = await site('private');
      const outsider = await person(priv.community);
      const checked = await s.oauth.authorization.check(priv, params(priv));
      assert.ok(checked.ok);
      await assert.rejects(
        s.oauth.authorization.grantable(checked.request, outsider),
        (e: unknown) => e instanceof DomainError && e.code === 'forbidden',
      );
      const insider = await person(priv.community, 'member');
      const insiderTokens = await exchange(priv, await codeFor(priv, insider));
      await s.accounts.removeMember(system, priv.community, {
        email: (await store.people.getById(insider.personId))!.email!,
      });
      await assert.rejects(
        s.oauth.tokens.authenticate(priv, insiderTokens.access_token),
        oauthError('invalid_token', /no longer a member/),
      );
    });

    test("writes through an app are the person's, labelled with the app, and under the approval policy whatever the role", async () => {
      const st = await site();
      const moderator = await person(st.community, 'moderator');
      const other = await person(st.community, 'moderator');
      await s.approvals.setPolicy(system, st.community, { kind: 'topic.create', mode: 'approval' });
      const actor = await s.oauth.tokens.authenticate(
        st,
        (await exchange(st, await codeFor(st, moderator))).access_token,
      );
      const queued = await s.writes.execute(actor, st.community, 'topic.create', {
        category: 'support',
        title: 'Queued from an app',
        body: 'A moderator asking through an app.',
      });
      assert.equal(queued.status, 'pending_approval');
      // The same moderator on the web writes at once.
      assert.equal(
        (
          await s.writes.execute(moderator, st.community, 'topic.create', {
            category: 'support',
            title: 'Written on the web',
            body: 'No queue for moderators themselves.',
          })
        ).status,
        'applied',
      );
      const approvalId = queued.status === 'pending_approval' ? queued.approval_id : '';
      await s.approvals.approve(other, st.community, approvalId);
      const page = await s.content.listTopics(system, st.community, { sort: 'created', limit: 10 });
      const applied = page.topics.find((t) => t.title === 'Queued from an app')!;
      assert.deepEqual(applied.author, {
        kind: 'person',
        id: moderator.personId,
        name: moderator.displayName,
        label: `posted by ${moderator.displayName} via Unit Assistant`,
      });
    });

    test('the client trust policy: domains, registered only; dynamic registration only under "any"', async () => {
      const st = await site();
      const admin = await person(st.community, 'admin');
      const member = await person(st.community, 'member');
      const show = async () => {
        const r = await s.oauth.authorization.check(st, params(st));
        return r.ok ? 'ok' : 'show' in r ? r.show : r.redirect;
      };
      const registered = await s.oauth.clients.register(st.community, {
        redirect_uris: ['http://127.0.0.1:9/cb'],
        client_name: 'Dyn',
      });
      assert.match(String(registered.client_id), /^hmlt_client_/);
      assert.equal(registered.token_endpoint_auth_method, 'none');
      await assert.rejects(
        s.oauth.clients.register(st.community, { redirect_uris: ['javascript:alert(1)'] }),
        oauthError('invalid_redirect_uri'),
      );

      await assert.rejects(
        s.oauth.clients.setPolicy(member, st.community, { mode: 'registered' }),
        (e: unknown) => e instanceof DomainError && e.code === 'forbidden',
      );
      await s.oauth.clients.setPolicy(admin, st.community, {
        mode: 'domains',
        allowedDomains: ['claude.ai'],
      });
      assert.match(await show(), /only apps from claude\.ai/);
      await assert.rejects(
        s.oauth.clients.register(st.community, { redirect_uris: ['http://127.0.0.1:9/cb'] }),
        oauthError('invalid_client_metadata'),
      );
      const dyn = await s.oauth.authorization.check(
        st,
        params(st, {
          client_id: String(registered.client_id),
          redirect_uri: 'http://127.0.0.1:9/cb',
        }),
      );
      assert.ok(!dyn.ok && 'show' in dyn && /no dynamically registered apps/.test(dyn.show));
      await s.oauth.clients.setPolicy(admin, st.community, {
        mode: 'domains',
        allowedDomains: ['127.0.0.1'],
      });
      assert.equal(await show(), 'ok');

      await s.oauth.clients.setPolicy(admin, st.community, { mode: 'registered' });
      assert.match(await show(), /only apps its administrators registered/);
      await s.oauth.clients.addRegistered(admin, st.community, {
        clientId: host.clientId,
        name: 'Unit Assistant',
      });
      assert.equal(await show(), 'ok');
      const own = await s.oauth.clients.addRegistered(admin, st.community, {
        name: 'In-house bot',
        redirectUris: ['https://bot.example.org/cb'],
      });
      const ownCheck = await s.oauth.authorization.check(
        st,
        params(st, { client_id: own.clientId, redirect_uri: 'https://bot.example.org/cb' }),
      );
      assert.ok(ownCheck.ok && ownCheck.request.client.name === 'In-house bot');
    });

    test("connected apps: a person sees and revokes their own; administrators see and revoke everyone's", async () => {
      const st = await site();
      const ada = await person(st.community, 'member');
      const bob = await person(st.community, 'member');
      const admin = await person(st.community, 'admin');
      const adaTokens = await exchange(st, await codeFor(st, ada));
      const bobTokens = await exchange(st, await codeFor(st, bob));
      // Connecting again updates the one grant of a person and client (no second entry).
      await exchange(st, await codeFor(st, ada));
      const mine = await s.oauth.connections.mine(ada, st.community);
      assert.equal(mine.length, 1);
      assert.equal(mine[0]!.clientName, 'Unit Assistant');
      assert.equal((await s.oauth.connections.all(admin, st.community)).length, 2);
      await assert.rejects(
        s.oauth.connections.all(ada, st.community),
        (e: unknown) => e instanceof DomainError && e.code === 'forbidden',
      );
      const bobGrant = (await s.oauth.connections.mine(bob, st.community))[0]!;
      await assert.rejects(
        s.oauth.connections.revoke(ada, st.community, bobGrant.id),
        (e: unknown) => e instanceof DomainError && e.code === 'forbidden',
      );
      await s.oauth.connections.revoke(admin, st.community, bobGrant.id);
      await assert.rejects(
        s.oauth.tokens.authenticate(st, bobTokens.access_token),
        oauthError('invalid_token'),
      );
      await s.oauth.connections.revoke(ada, st.community, mine[0]!.id);
      await assert.rejects(
        s.oauth.tokens.authenticate(st, adaTokens.access_token),
        oauthError('invalid_token'),
      );
      assert.deepEqual(await s.oauth.connections.all(admin, st.community), []);
      const audited = (await s.audit.list(admin, st.community, { limit: 200 })).entries.map(
        (e) => `${e.action} ${e.actorName}`,
      );
      assert.ok(
        audited.includes(`oauth.connect ${ada.displayName}`) &&
          audited.includes(`oauth.disconnect ${admin.displayName}`),
        audited.join(', '),
      );
      // An app acting for a person cannot manage connections.
      await assert.rejects(
        s.oauth.connections.mine(
          { ...ada, client: { id: 'x', name: 'X', grantId: 'g', scopes: [] } },
          st.community,
        ),
        (e: unknown) => e instanceof DomainError,
      );
    });

    test('the signing key rotates: the previous key verifies its tokens until they expire, a second rotation waits for that, revoking forgets at once', async () => {
      const st = await site();
      const ada = await person(st.community, 'member');
      const kid = (token: string) => decodeProtectedHeader(token).kid;
      const first = await exchange(st, await codeFor(st, ada));
      const rotation = await s.oauth.keys.rotate();
      assert.notEqual(rotation.kid, kid(first.access_token));
      assert.deepEqual(rotation.kept, [kid(first.access_token)]);
      const refreshed = await s.oauth.tokens.token(st, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: host.clientId,
      });
      assert.equal(
        kid(refreshed.access_token),
        rotation.kid,
        'new tokens are signed with the new key',
      );
      assert.equal(
        (await s.oauth.tokens.authenticate(st, first.access_token)).personId,
        ada.personId,
        'the previous key still verifies',
      );
      assert.deepEqual(
        (await s.oauth.keys.jwks()).keys.map((k) => k.kid).sort(),
        [kid(first.access_token), rotation.kid].sort(),
      );
      // Another instance, started now, signs with the new key too.
      const second = new OAuthService(store, s.auth, s.audit, config.oauth, config, clock);
      assert.equal(kid(await second.keys.sign({ sub: 'x' }, 60)), rotation.kid);
      await assert.rejects(s.oauth.keys.rotate(), /too new to replace/);

      nowMs += (config.oauth.accessTokenSeconds + 61) * 1000;
      const next = await s.oauth.keys.rotate();
      assert.deepEqual(next.kept, [rotation.kid]);
      assert.ok(next.forgotten.includes(kid(first.access_token)!));
      const current = await s.oauth.tokens.token(st, {
        grant_type: 'refresh_token',
        refresh_token: refreshed.refresh_token,
        client_id: host.clientId,
      });
      assert.equal(kid(current.access_token), next.kid);
      const revoked = await s.oauth.keys.rotate({ revokePrevious: true });
      assert.deepEqual(revoked.kept, []);
      assert.ok(revoked.forgotten.includes(next.kid));
      await assert.rejects(
        s.oauth.tokens.authenticate(st, current.access_token),
        oauthError('invalid_token'),
        'a forgotten key verifies nothing',
      );
      assert.deepEqual(
        (await s.oauth.keys.jwks()).keys.map((k) => k.kid),
        [revoked.kid],
      );
    });

    test('access tokens expire, are bound to their site, verify on another instance; refresh can narrow but not widen', async () => {
      const st = await site();
      const other = await site();
      const ada = await person(st.community, 'member');
      const tokens = await exchange(st, await codeFor(st, ada));
      await assert.rejects(
        s.oauth.tokens.authenticate(other, tokens.access_token),
        oauthError('invalid_token'),
      );
      // Another instance (or this one after a restart) over the same database verifies it.
      const second = new OAuthService(store, s.auth, s.audit, config.oauth, config, clock);
      assert.equal(
        (await second.tokens.authenticate(st, tokens.access_token)).personId,
        ada.personId,
      );
      await assert.rejects(
        s.oauth.tokens.token(st, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: host.clientId,
          scope: 'topic:create article:write',
        }),
        oauthError('invalid_scope'),
      );
      const narrowed = await s.oauth.tokens.token(st, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: host.clientId,
        scope: 'post:create',
      });
      assert.equal(narrowed.scope, 'post:create');
      await assert.rejects(
        s.oauth.tokens.token(st, {
          grant_type: 'refresh_token',
          refresh_token: narrowed.refresh_token,
          client_id: 'https://someone.else/client.json',
        }),
        oauthError('invalid_grant'),
      );
      nowMs += (config.oauth.accessTokenSeconds + 10) * 1000;
      await assert.rejects(
        s.oauth.tokens.authenticate(st, narrowed.access_token),
        oauthError('invalid_token', /expired/),
      );
      await assert.rejects(
        s.oauth.tokens.token(st, { grant_type: 'password', client_id: host.clientId }),
        oauthError('unsupported_grant_type'),
      );
    });
  });
}
