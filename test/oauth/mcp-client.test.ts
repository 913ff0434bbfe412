// The official MCP TypeScript client (@modelcontextprotocol/client 2.x) connects to the connector
// URL with its own OAuth support, as an MCP host would: it meets the 401, discovers the resource and
// authorization server metadata, identifies itself with its client metadata document (served over
// https, as the SDK requires, with a certificate Hamlet is told to trust) or, as the fallback,
// registers dynamically; sends the person to the consent page (Chromium), finishes with the code
// and the iss it validates, and calls tools with the token it got.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { chromiumAvailable, contextFor, launch } from '../web/browser-kit.ts';
import { addPerson, selfSignedCertificate, startClientHost, type ClientHost } from './helpers.ts';

type Saved = Record<string, unknown>;

/** An in-memory provider: what an MCP host keeps per server, and the person's browser for consent. */
function provider(
  host: ClientHost,
  openBrowser: (url: URL) => Promise<void>,
  clientMetadataUrl?: string,
): OAuthClientProvider & { saved: Saved } {
  const saved: Saved = {};
  return {
    saved,
    ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
    get redirectUrl() {
      return host.redirectUri;
    },
    get clientMetadata() {
      return {
        client_name: 'SDK Assistant',
        redirect_uris: [host.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    clientInformation: () => saved.client as never,
    saveClientInformation: (info) => void (saved.client = info),
    tokens: () => saved.tokens as never,
    saveTokens: (tokens) => void (saved.tokens = tokens),
    saveCodeVerifier: (v) => void (saved.verifier = v),
    codeVerifier: () => saved.verifier as string,
    saveDiscoveryState: (s) => void (saved.discovery = s),
    discoveryState: () => saved.discovery as never,
    redirectToAuthorization: (url) => openBrowser(url),
  };
}

if (chromiumAvailable('MCP SDK client with OAuth')) {
  const certificate = selfSignedCertificate();
  let h: TestHamlet;
  let acme: Community;
  let browser: Browser;
  const hosts: ClientHost[] = [];

  before(async () => {
    h = await startTestHamlet(
      {
        HAMLET_OAUTH_ALLOW_PRIVATE_CLIENTS: '1',
        ...(certificate ? { HAMLET_OAUTH_CLIENT_CA_FILE: certificate.certFile } : {}),
      },
      { demo: true },
    );
    acme = (await h.store.communities.getBySlug('acme'))!;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    for (const host of hosts) await host.close();
    await h?.stop();
  });

  /** Connects the SDK client for a new person; returns it connected, and what its provider saved. */
  async function connect(
    host: ClientHost,
    person: string,
    at: { host: string; path: string },
    clientMetadataUrl?: string,
  ): Promise<{ client: Client; saved: Saved }> {
    const grace = await addPerson(h, acme, person, 'member');
    const session = await h.services.accounts.createWebSession(grace.personId);
    const context = await contextFor(browser, h);
    await context.addCookies([
      {
        name: 'hamlet_session',
        value: session.token,
        url: h.hostUrl(at.host, '/'),
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
    let callback: URL | undefined;
    const consent = async (url: URL) => {
      const page = await context.newPage();
      await page.goto(url.href);
      assert.equal(
        await page.getByRole('heading', { level: 1 }).innerText(),
        'Connect SDK Assistant to Acme?',
      );
      const landed = host.nextCallback();
      await page.getByRole('button', { name: 'Allow' }).click();
      callback = await landed;
      await page.close();
    };
    const auth = provider(host, consent, clientMetadataUrl);
    const url = new URL(h.hostUrl(at.host, at.path));

    const first = new Client({ name: 'sdk-assistant', version: '1.0.0' });
    await assert.rejects(
      first.connect(new StreamableHTTPClientTransport(url, { authProvider: auth })),
      UnauthorizedError,
    );
    assert.ok(callback, 'the SDK sent the person to the consent page and they came back');
    const transport = new StreamableHTTPClientTransport(url, { authProvider: auth });
    await transport.finishAuth(callback!.searchParams);
    assert.equal(
      (auth.saved.tokens as { scope: string }).scope,
      'topic:create post:create solution:mark',
    );
    const client = new Client({ name: 'sdk-assistant', version: '1.0.0' });
    await client.connect(transport);
    await context.close();
    return { client, saved: auth.saved };
  }

  async function useIt(client: Client, title: string): Promise<void> {
    assert.equal(client.getServerVersion()?.title, 'Hamlet: acme');
    const found = await client.callTool({
      name: 'search_community',
      arguments: { query: 'PostgreSQL' },
    });
    assert.equal(found.isError, false);
    const asked = await client.callTool({
      name: 'create_topic',
      arguments: {
        category: 'support',
        title,
        body: 'Connected with OAuth from the official client.',
      },
    });
    assert.equal((asked.structuredContent as { status: string }).status, 'applied');
    await client.close();
  }

  const noOpenssl =
    !certificate && process.env.CI !== 'true'
      ? 'openssl is not installed (it makes the test certificate)'
      : false;
  test(
    '@modelcontextprotocol/client connects with its client metadata document (https)',
    { skip: noOpenssl },
    async () => {
      assert.ok(certificate, 'CI=true but openssl is missing (apt-get install openssl)');
      const host = await startClientHost('SDK Assistant', certificate);
      hosts.push(host);
      const { client, saved } = await connect(
        host,
        'Grace Hopper',
        { host: 'acme.localhost', path: '/mcp' },
        host.clientId,
      );
      assert.equal((saved.client as { client_id: string }).client_id, host.clientId);
      assert.ok(host.metadataFetches >= 1, 'Hamlet fetched the document over https');
      await useIt(client, 'Asked through the MCP SDK with a metadata document');
    },
  );

  test('@modelcontextprotocol/client falls back to dynamic registration, in the path form on the apex', async () => {
    const host = await startClientHost('SDK Assistant');
    hosts.push(host);
    // http://localhost:<port>/c/acme/mcp: the form clients that do not resolve *.localhost use.
    const { client, saved } = await connect(host, 'Katherine Johnson', {
      host: 'localhost',
      path: '/c/acme/mcp',
    });
    assert.match(String((saved.client as { client_id: string }).client_id), /^hmlt_client_/);
    assert.equal(host.metadataFetches, 0);
    await useIt(client, 'Asked through the MCP SDK after registering');
  });
}
