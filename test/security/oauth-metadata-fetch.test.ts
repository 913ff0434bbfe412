// The consent page fetches a client's metadata document (any URL an outsider names as client_id)
// only for a signed-in person, and no more often than their budgets allow: a visitor's request
// fetches nothing, a person's documents not in the cache cost one fetch each (10 a minute per
// person, 30 per address), the next one is a 429 page with Retry-After that fetched nothing, and a
// cached document still works.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { FETCH_LIMITS } from '../../src/domain/oauth/client-metadata.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { raw } from '../mcp/http-client.ts';
import { addPerson, startClientHost, type ClientHost } from '../oauth/helpers.ts';

let h: TestHamlet;
const hosts: ClientHost[] = [];

before(async () => {
  h = await startTestHamlet({ HAMLET_OAUTH_ALLOW_PRIVATE_CLIENTS: '1' }, { demo: true });
});
after(async () => {
  for (const host of hosts) await host.close();
  await h?.stop();
});

const authorize = (clientId: string, redirectUri: string) =>
  h.hostUrl(
    'localhost',
    `/c/acme/oauth/authorize?response_type=code&client_id=${encodeURIComponent(clientId)}&redirect_uri=${encodeURIComponent(redirectUri)}&code_challenge=${createHash('sha256').update('v'.repeat(50)).digest('base64url')}&code_challenge_method=S256`,
  );

async function signedIn(name: string): Promise<Record<string, string>> {
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const person = await addPerson(h, acme, name, 'member');
  const session = await h.services.accounts.createWebSession(person.personId);
  return { cookie: `hamlet_session=${session.token}` };
}

test("a visitor's authorization request fetches no metadata document", async () => {
  const named = await startClientHost('Named by a visitor');
  const other = await startClientHost('Named by a member');
  hosts.push(named, other);
  const visitor = await raw(authorize(named.clientId, named.redirectUri));
  assert.equal(visitor.status, 303, 'the visitor is sent to sign in');
  // A signed-in request after it fetches its own document: by then the visitor's would have been.
  const member = await raw(authorize(other.clientId, other.redirectUri), {
    headers: await signedIn('Maud'),
  });
  assert.equal(member.status, 200, member.text);
  assert.equal(other.metadataFetches, 1);
  assert.equal(named.metadataFetches, 0, "the visitor's client_id was not fetched");
});

test('a person fetches at most 10 new documents a minute; a cached one still works', async () => {
  const host = await startClientHost('Many names');
  hosts.push(host);
  const cookie = await signedIn('Flo');
  const cached = await raw(authorize(host.clientId, host.redirectUri), { headers: cookie });
  assert.equal(cached.status, 200, cached.text);
  // Each a new URL (the document names another one, so it is refused, and not cached).
  for (let i = 1; i < FETCH_LIMITS.perPerson; i++) {
    const r = await raw(authorize(`${host.clientId}?n=${i}`, host.redirectUri), {
      headers: cookie,
    });
    assert.equal(r.status, 400, r.text);
    assert.match(r.text, /not acceptable/);
  }
  assert.equal(host.metadataFetches, FETCH_LIMITS.perPerson);
  const refused = await raw(authorize(`${host.clientId}?n=x`, host.redirectUri), {
    headers: cookie,
  });
  assert.equal(refused.status, 429, refused.text);
  assert.match(refused.headers['retry-after'] ?? '', /^[1-9]\d*$/);
  assert.match(refused.text, /at most 10 new apps a minute for one person/);
  assert.equal(host.metadataFetches, FETCH_LIMITS.perPerson, 'nothing was fetched');
  const again = await raw(authorize(host.clientId, host.redirectUri), { headers: cookie });
  assert.equal(again.status, 200, 'the cached document needs no fetch');
  // Another person has a budget of their own.
  const other = await raw(authorize(`${host.clientId}?n=y`, host.redirectUri), {
    headers: await signedIn('Gus'),
  });
  assert.equal(other.status, 400, other.text);
  assert.equal(host.metadataFetches, FETCH_LIMITS.perPerson + 1);
});
