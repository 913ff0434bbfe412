// The whole OAuth flow as an MCP host drives it, with oauth4webapi as the client and a person in
// Chromium: discovery from the connector's 401, resource and server metadata, the client identified
// by its metadata document (fetched from a local server), sign-in and consent in the browser, code
// exchange with PKCE, tool calls with the token, a step-up for a missing scope, refresh rotation,
// replay detection revoking the whole grant, and a disconnect on the web stopping the next call.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { rpc } from '../mcp/http-client.ts';
import { checkAxe, chromiumAvailable, contextFor, launch } from '../web/browser-kit.ts';
import { addPerson, startClientHost, type ClientHost, type TestPerson } from './helpers.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

if (chromiumAvailable('OAuth flow in Chromium')) {
  let h: TestHamlet;
  let acme: Community;
  let host: ClientHost;
  let browser: Browser;
  let browserContext: BrowserContext;
  let ada: TestPerson;
  let connector: string;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let tokens: oauth.TokenEndpointResponse;
  let firstRefresh: string;
  let scope: string;
  /** Every code and token handed out, to look for in the logs. */
  const secrets: string[] = [];

  before(async () => {
    h = await startTestHamlet({ HAMLET_OAUTH_ALLOW_PRIVATE_CLIENTS: '1' }, { demo: true });
    acme = (await h.store.communities.getBySlug('acme'))!;
    connector = h.hostUrl('acme.localhost', '/mcp');
    host = await startClientHost('Test Assistant');
    ada = await addPerson(h, acme, 'Ada Lovelace', 'member');
    await h.services.approvals.setPolicy(systemActor('test'), acme, {
      kind: 'article.write',
      mode: 'approval',
    });
    browser = await launch();
    browserContext = await contextFor(browser, h);
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await h?.stop();
  });

  const mcp = (token: string | undefined, method: string, params: Record<string, unknown> = {}) =>
    rpc(
      connector,
      { jsonrpc: '2.0', id: 1, method, params },
      token ? { authorization: `Bearer ${token}` } : {},
    );

  /** The person's part: open the authorization URL, allow on the consent page, land on the callback. */
  async function consent(
    scopes: string,
    options: { expectScopes?: RegExp; axe?: boolean } = {},
  ): Promise<URL> {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: host.redirectUri,
      response_type: 'code',
      scope: scopes,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: connector,
    }).toString();
    const page = await browserContext.newPage();
    await page.goto(url.href);
    if (new URL(page.url()).pathname === '/signin') {
      // Not signed in yet: the sign-in page, then back to the consent page.
      await page.getByLabel('E-mail address').fill(ada.email);
      await page.getByLabel('Password').fill(ada.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((u) => u.pathname === '/oauth/authorize');
      const cookie = (await browserContext.cookies()).find((c) => c.name === 'hamlet_session');
      if (cookie) secrets.push(cookie.value);
    }
    assert.equal(
      await page.getByRole('heading', { level: 1 }).innerText(),
      'Connect Test Assistant to Acme?',
    );
    const text = await page.locator('main').innerText();
    assert.match(text, /from 127\.0\.0\.1:\d+/);
    assert.match(text, /Search and read this community/);
    if (options.expectScopes) assert.match(text, options.expectScopes);
    if (options.axe) await checkAxe(page, 'oauth consent');
    const landed = host.nextCallback();
    await page.getByRole('button', { name: 'Allow' }).click();
    const callback = await landed;
    await page.close();
    const params = oauth.validateAuthResponse(as, client, callback, state); // checks iss (RFC 9207) and state
    secrets.push(params.get('code')!);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      host.redirectUri,
      verifier,
      { ...insecure, additionalParameters: { resource: connector } },
    );
    const issued = await oauth.processAuthorizationCodeResponse(as, client, response);
    secrets.push(issued.access_token, issued.refresh_token!);
    return new URL(`data:,${JSON.stringify(issued)}`);
  }
  const tokensOf = (u: URL) =>
    JSON.parse(decodeURIComponent(u.pathname.slice(1))) as oauth.TokenEndpointResponse;

  test('discovery: the connector answers 401 with its metadata URL and scopes; the metadata names Hamlet as the server', async () => {
    const first = await mcp(undefined, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'test', version: '1' },
    });
    assert.equal(first.status, 401);
    const challenge = first.headers['www-authenticate']!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    scope = /scope="([^"]+)"/.exec(challenge)![1]!;
    assert.equal(
      metadataUrl,
      h.hostUrl('acme.localhost', '/.well-known/oauth-protected-resource/mcp'),
    );
    assert.equal(scope, 'topic:create post:create solution:mark');

    const rs = await oauth.processResourceDiscoveryResponse(
      new URL(connector),
      await oauth.resourceDiscoveryRequest(new URL(connector), insecure),
    );
    assert.equal(rs.resource, connector);
    const issuer = new URL(rs.authorization_servers![0]!);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }),
    );
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.equal(as.client_id_metadata_document_supported, true);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    client = { client_id: host.clientId, token_endpoint_auth_method: 'none' };
  });

  test('sign-in and consent in the browser, the client known by its metadata document; the code is exchanged with PKCE', async () => {
    tokens = tokensOf(
      await consent(scope, {
        expectScopes: /Ask questions and start topics in your name/,
        axe: true,
      }),
    );
    assert.ok(host.metadataFetches >= 1, 'Hamlet fetched the client metadata document');
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.scope, 'topic:create post:create solution:mark');
    assert.ok(tokens.expires_in! <= 600);
    assert.match(tokens.refresh_token!, /^hmlt_rt_/);
    firstRefresh = tokens.refresh_token!;
  });

  test('the token works at the connector: reads and a write labelled with the app', async () => {
    const search = await mcp(tokens.access_token, 'tools/call', {
      name: 'search_community',
      arguments: { query: 'PostgreSQL' },
    });
    assert.equal(search.status, 200);
    assert.equal(search.json().result.isError, false);
    const asked = await mcp(tokens.access_token, 'tools/call', {
      name: 'create_topic',
      arguments: {
        category: 'support',
        title: 'Asked through a connected app',
        body: 'Does the connector label what my assistant writes?',
      },
    });
    assert.equal(asked.status, 200);
    const out = asked.json().result.structuredContent;
    assert.equal(out.status, 'applied');
    const topic = await mcp(tokens.access_token, 'tools/call', {
      name: 'get_topic',
      arguments: { topic: out.topic.id },
    });
    assert.deepEqual(topic.json().result.structuredContent.topic.author, {
      kind: 'person',
      id: ada.personId,
      name: 'Ada Lovelace',
      label: 'posted by Ada Lovelace via Test Assistant',
    });
  });

  test('a token is bound to its connector URL: refused on another community and on /api/mcp', async () => {
    await h.services.communities.create(systemActor('test'), { slug: 'other', name: 'Other' });
    const elsewhere = await rpc(
      h.hostUrl('other.localhost', '/mcp'),
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${tokens.access_token}` },
    );
    assert.equal(elsewhere.status, 401);
    assert.match(elsewhere.headers['www-authenticate']!, /error="invalid_token"/);
    const api = await rpc(
      h.hostUrl('acme.localhost', '/api/mcp'),
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_categories', arguments: {} },
      },
      { authorization: `Bearer ${tokens.access_token}` },
    );
    assert.equal(api.json().result.structuredContent.code, 'unauthorized');
    assert.match(api.json().result.structuredContent.error, /connector URL/);
  });

  test('step-up: a call needing a scope the token lacks is a 403 insufficient_scope; connecting again adds it', async () => {
    const write = () =>
      oauth.protectedResourceRequest(
        tokens.access_token,
        'POST',
        new URL(connector),
        new Headers({ 'content-type': 'application/json' }),
        JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: {
            name: 'create_topic',
            arguments: {
              category: 'docs',
              title: 'Connecting an MCP host with OAuth',
              body: 'Use the connector URL ending in /mcp and approve the scopes.',
            },
          },
        }),
        insecure,
      );
    const refused = await write().then(
      () => assert.fail('expected a challenge'),
      (err: unknown) => err,
    );
    assert.ok(refused instanceof oauth.WWWAuthenticateChallengeError);
    assert.equal(refused.status, 403);
    const params = refused.cause[0]!.parameters;
    assert.equal(params.error, 'insufficient_scope');
    assert.equal(params.scope, 'topic:create post:create solution:mark article:write');
    tokens = tokensOf(
      await consent(params.scope!, { expectScopes: /Write knowledge-base articles in your name/ }),
    );
    assert.equal(tokens.scope, 'topic:create post:create solution:mark article:write');
    const written = await (await write()).json();
    // The community queues articles for approval; a write through an app is under the policy like an agent's.
    assert.equal(written.result.structuredContent.status, 'pending_approval');
  });

  test('refresh rotates the refresh token; replaying a rotated one revokes the whole grant', async () => {
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.None(),
        tokens.refresh_token!,
        insecure,
      ),
    );
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    assert.notEqual(refreshed.access_token, tokens.access_token);
    assert.equal((await mcp(refreshed.access_token, 'tools/list')).status, 200);

    const replay = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.None(),
      tokens.refresh_token!,
      insecure,
    );
    const replayError = await oauth.processRefreshTokenResponse(as, client, replay).then(
      () => assert.fail('a rotated refresh token was accepted'),
      (err: unknown) => err,
    );
    assert.ok(replayError instanceof oauth.ResponseBodyError);
    assert.equal(replayError.error, 'invalid_grant');
    // Every token of the grant is dead: the newest refresh token, the newest access token, the first refresh token.
    const newest = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.None(),
      refreshed.refresh_token!,
      insecure,
    );
    assert.equal((await newest.json()).error, 'invalid_grant');
    assert.equal(
      (await oauth.refreshTokenGrantRequest(as, client, oauth.None(), firstRefresh, insecure))
        .status,
      400,
    );
    const dead = await mcp(refreshed.access_token, 'tools/list');
    assert.equal(dead.status, 401);
    assert.match(dead.headers['www-authenticate']!, /error="invalid_token"/);
  });

  test("people see their connected apps on the web (administrators everyone's) and disconnecting one stops the next call", async () => {
    tokens = tokensOf(await consent(scope));
    assert.equal((await mcp(tokens.access_token, 'tools/list')).status, 200);
    // An administrator sees every connection of the community.
    const admin = await addPerson(h, acme, 'Alan Turing', 'admin');
    const adminContext = await contextFor(
      browser,
      h,
      'acme.localhost',
      (await h.services.accounts.createWebSession(admin.personId)).token,
    );
    const adminPage = await adminContext.newPage();
    await adminPage.goto(h.hostUrl('acme.localhost', '/admin/apps'));
    assert.match(
      await adminPage.getByRole('row', { name: /Test Assistant/ }).innerText(),
      /Ada Lovelace/,
    );
    await checkAxe(adminPage, 'connected apps (administrators)');
    await adminContext.close();
    const page = await browserContext.newPage();
    await page.goto(h.hostUrl('acme.localhost', '/account/apps'));
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Connected apps');
    await checkAxe(page, 'connected apps');
    assert.match(
      await page.getByRole('row', { name: /Test Assistant/ }).innerText(),
      /read, ask, reply, accept answers/,
    );
    await page.getByRole('button', { name: 'Disconnect Test Assistant' }).click();
    await page.waitForURL(/\/account\/apps$/);
    assert.match(await page.getByRole('status').innerText(), /Test Assistant is disconnected/);
    assert.match(await page.locator('main').innerText(), /No apps are connected/);
    await page.close();
    const stopped = await mcp(tokens.access_token, 'tools/list');
    assert.equal(stopped.status, 401);
    assert.match(stopped.headers['www-authenticate']!, /was revoked/);
    assert.equal(
      (
        await oauth.refreshTokenGrantRequest(
          as,
          client,
          oauth.None(),
          tokens.refresh_token!,
          insecure,
        )
      ).status,
      400,
    );
  });

  test('no code, access token, refresh token or session token is in the logs', () => {
    const logs = h.logs.join('');
    assert.ok(logs.includes('oauth.grant_revoked'), 'the revocations were logged');
    for (const secret of secrets)
      assert.equal(logs.includes(secret), false, `${secret.slice(0, 12)}… is in the logs`);
  });
}
