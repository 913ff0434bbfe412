// Client ID Metadata Documents: which client_id URLs are usable, which documents are acceptable, and
// the SSRF guard on fetching them (public addresses only unless allowed, bounded size, no redirects).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RateLimitedError } from '../identity/rate-limit.ts';
import {
  ClientMetadataFetcher,
  clientIdUrlProblem,
  FETCH_LIMITS,
  MAX_DOCUMENT_BYTES,
  parseClientDocument,
} from './client-metadata.ts';
import { OAuthError } from './errors.ts';
import { redirectUriMatches, redirectUriProblem } from './redirects.ts';
import { isBlockedAddress } from '../../outbound/addresses.ts';

const ID = 'https://app.example.com/oauth/client.json';
const doc = (over: Record<string, unknown> = {}) => ({
  client_id: ID,
  client_name: 'Example',
  redirect_uris: ['https://app.example.com/cb'],
  ...over,
});

test('a client_id URL is https with a path, no fragment, credentials or dot segments', () => {
  assert.equal(clientIdUrlProblem(ID, false), undefined);
  assert.match(clientIdUrlProblem('http://app.example.com/c.json', false)!, /https/);
  assert.equal(clientIdUrlProblem('http://127.0.0.1:8000/c.json', true), undefined);
  assert.match(clientIdUrlProblem('https://app.example.com/', false)!, /path/);
  assert.match(clientIdUrlProblem('https://app.example.com/c.json#x', false)!, /fragment/);
  assert.match(clientIdUrlProblem('https://u:p@app.example.com/c.json', false)!, /credentials/);
  assert.match(clientIdUrlProblem('https://app.example.com/a/../c.json', false)!, /segments/);
});

test('a document must name itself by its URL, describe a public client, and list safe redirect URIs', () => {
  assert.deepEqual(parseClientDocument(ID, doc()), {
    clientId: ID,
    name: 'Example',
    redirectUris: ['https://app.example.com/cb'],
    kind: 'metadata',
    host: 'app.example.com',
  });
  const refused = (body: unknown, why: RegExp) =>
    assert.throws(
      () => parseClientDocument(ID, body),
      (e: unknown) =>
        e instanceof OAuthError && e.error === 'invalid_client' && why.test(e.description),
    );
  refused(doc({ client_id: 'https://other.example.com/c.json' }), /not its own URL/);
  refused(doc({ client_secret: 's3cret' }), /client secret/);
  refused(doc({ token_endpoint_auth_method: 'client_secret_basic' }), /not supported/);
  refused(doc({ redirect_uris: ['javascript:alert(1)'] }), /javascript/);
  refused(doc({ redirect_uris: ['http://app.example.com/cb'] }), /loopback/);
  refused(doc({ redirect_uris: [] }), /empty/);
  refused(doc({ grant_types: ['client_credentials'] }), /authorization_code/);
  refused({ client_id: ID }, /client_name/);
});

test('redirect URIs: exact match, except any port on a loopback IP literal', () => {
  assert.equal(redirectUriProblem('cursor://anysphere.cursor-retrieval/oauth/callback'), undefined);
  assert.match(redirectUriProblem('https://a.example/cb#frag')!, /fragment/);
  assert.equal(redirectUriMatches('https://a.example/cb', ['https://a.example/cb']), true);
  assert.equal(redirectUriMatches('https://a.example/cb/', ['https://a.example/cb']), false);
  assert.equal(redirectUriMatches('http://127.0.0.1:51234/cb', ['http://127.0.0.1/cb']), true);
  assert.equal(redirectUriMatches('http://127.0.0.1:51234/other', ['http://127.0.0.1/cb']), false);
  // A fragment never matches, on any port (nor would it be kept when the answer is added).
  for (const uri of ['http://127.0.0.1:51234/cb#x', 'http://127.0.0.1/cb#x', 'http://[::1]:9/cb#'])
    assert.equal(redirectUriMatches(uri, ['http://127.0.0.1/cb', 'http://[::1]/cb']), false, uri);
  assert.equal(
    redirectUriMatches('http://localhost:51234/cb', ['http://localhost:3000/cb']),
    false,
  );
});

test('only public addresses are fetched: loopback, private, link-local, CGNAT, mapped and NAT64 forms are not', () => {
  for (const a of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::7f00:1',
    '224.0.0.1',
  ]) {
    assert.equal(isBlockedAddress(a), true, a);
  }
  for (const a of ['93.184.215.14', '2606:4700:4700::1111', '8.8.8.8'])
    assert.equal(isBlockedAddress(a), false, a);
});

test('the fetcher refuses private targets unless allowed, bounds the size, and does not follow redirects', async () => {
  let body = '';
  const server = createServer((req, res) => {
    if (req.url === '/redirect.json')
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const strict = new ClientMetadataFetcher(false);
    await assert.rejects(
      strict.get(`${base}/c.json`),
      (e: unknown) => e instanceof OAuthError && /https/.test(e.description),
    );
    await assert.rejects(
      strict.get('https://127.0.0.1:1/c.json'),
      (e: unknown) => e instanceof OAuthError && /not a public address/.test(e.description),
    );
    await assert.rejects(
      strict.get('https://localhost:1/c.json'),
      (e: unknown) => e instanceof OAuthError && /not a public address/.test(e.description),
    );

    const dev = new ClientMetadataFetcher(true);
    body = JSON.stringify({
      client_id: `${base}/c.json`,
      client_name: 'Local',
      redirect_uris: ['http://127.0.0.1:9/cb'],
    });
    assert.equal((await dev.get(`${base}/c.json`)).name, 'Local');
    body = JSON.stringify({
      client_id: `${base}/big.json`,
      client_name: 'x'.repeat(MAX_DOCUMENT_BYTES),
      redirect_uris: ['http://127.0.0.1:9/cb'],
    });
    await assert.rejects(
      dev.get(`${base}/big.json`),
      (e: unknown) => e instanceof OAuthError && /larger than/.test(e.description),
    );
    await assert.rejects(
      dev.get(`${base}/redirect.json`),
      (e: unknown) => e instanceof OAuthError && /HTTP 302/.test(e.description),
    );
  } finally {
    server.close();
  }
});

test('fetches for a person are limited per person and per address; cached documents are free', async () => {
  let fetches = 0;
  const server = createServer((req, res) => {
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        client_id: `${base}${req.url}`,
        client_name: 'Local',
        redirect_uris: ['http://127.0.0.1:9/cb'],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let now = 0;
  const fetcher = new ClientMetadataFetcher(true, () => now);
  const limited = (e: unknown) => e instanceof RateLimitedError && e.retryAfterSeconds > 0;
  try {
    const ann = { personId: 'ann', ip: '192.0.2.1' };
    for (let i = 0; i < FETCH_LIMITS.perPerson; i++) await fetcher.get(`${base}/a${i}.json`, ann);
    await assert.rejects(fetcher.get(`${base}/a-more.json`, ann), limited);
    await fetcher.get(`${base}/a0.json`, ann); // cached
    assert.equal(fetches, FETCH_LIMITS.perPerson);
    // Other people at the same address share its budget.
    for (let i = FETCH_LIMITS.perPerson; i < FETCH_LIMITS.perAddress; i++)
      await fetcher.get(`${base}/b${i}.json`, { personId: `p${i}`, ip: ann.ip });
    await assert.rejects(fetcher.get(`${base}/c.json`, { personId: 'new', ip: ann.ip }), limited);
    assert.equal(fetches, FETCH_LIMITS.perAddress);
    now += 60_000; // a minute later, both budgets are full again
    await fetcher.get(`${base}/a-more.json`, ann);
    assert.equal(fetches, FETCH_LIMITS.perAddress + 1);
  } finally {
    server.close();
  }
});
