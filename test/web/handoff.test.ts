// One account on every community host: signed in on the apex, a person continues on acme's own
// host without a password (state kept by acme's cookie, a one-minute single-use ticket from the
// apex), and a member of a private community reaches its own host the same way. Refused: a ticket
// spent twice, a claim without this browser's state (signing someone into an account of yours), a
// ticket on another host than its own, a ticket used as a session cookie, a real session's token
// as a ticket, and tickets for hosts that are not communities of this site or that the person may
// not read, answered as for an unknown host.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { visible, WebClient } from './client.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
let h: TestHamlet;
const apexUrl = () => `http://localhost:${h.port}`;
const acmeUrl = () => `http://acme.localhost:${h.port}`;
const pathOf = (location: string | undefined) => {
  const u = new URL(location!);
  return u.pathname + u.search;
};

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  await h.services.accounts.createUser(system, {
    email: 'nora@example.org',
    password: PASSWORD,
    name: 'Nora',
  });
  await h.services.accounts.createUser(system, {
    email: 'vic@example.org',
    password: PASSWORD,
    name: 'Vic',
  });
  await h.services.communities.create(system, {
    slug: 'vault',
    name: 'Vault',
    visibility: 'private',
  });
  await h.services.accounts.addMember(system, (await h.store.communities.getBySlug('vault'))!, {
    email: 'vic@example.org',
    role: 'member',
  });
});
after(() => h.stop());

async function signedInOnApex(email = 'nora@example.org'): Promise<WebClient> {
  const apex = new WebClient(apexUrl());
  await apex.get('/signin');
  assert.match(
    (await apex.post('/signin', { email, password: PASSWORD, next: '/' })).text,
    /Signed in as/,
  );
  return apex;
}

/** acme's continue → the apex's ticket; returns acme's client (holding the state) and the claim URL. */
async function handoff(apex: WebClient): Promise<{ acme: WebClient; claim: string }> {
  const acme = new WebClient(acmeUrl());
  const signin = await acme.get('/signin?next=%2Flatest');
  assert.match(
    visible(signin.text),
    /Signed in on the main site already\? Continue with that account/,
  );
  const go = await acme.get('/session/continue?next=%2Flatest');
  assert.equal(go.status, 303);
  assert.equal(new URL(go.headers.location!).host, `localhost:${h.port}`, 'to the apex');
  const back = await apex.get(pathOf(go.headers.location));
  assert.equal(back.status, 303, back.text);
  assert.equal(new URL(back.headers.location!).host, `acme.localhost:${h.port}`, 'back to acme');
  return { acme, claim: pathOf(back.headers.location) };
}

test('signed in on the apex, a person continues on a community host without a password', async () => {
  const apex = await signedInOnApex();
  const { acme, claim } = await handoff(apex);
  const claimed = await acme.get(claim);
  assert.equal(claimed.status, 303, claimed.text);
  assert.equal(claimed.headers.location, '/latest');
  assert.ok(acme.cookie('hamlet_session'), 'acme has a session of its own');
  assert.notEqual(acme.cookie('hamlet_session'), apex.cookie('hamlet_session'));
  assert.match(visible((await acme.get('/latest')).text), /Signed in as Nora/);
  assert.match(visible((await acme.get('/account')).text), /Nora/);
  assert.match(visible((await apex.get('/')).text), /Sign out/, 'the apex stays signed in');
});

test('a ticket is spent once, and only by the browser that asked for it', async () => {
  const apex = await signedInOnApex();
  const { acme, claim } = await handoff(apex);
  const state = new URL(claim, acmeUrl()).searchParams.get('state')!;
  // Another browser handed the link (an attacker signing a visitor into their account): no state cookie.
  const stranger = new WebClient(acmeUrl());
  assert.equal((await stranger.get(claim)).status, 400);
  assert.equal(stranger.cookie('hamlet_session'), undefined);
  assert.equal(
    (await acme.get(claim)).status,
    303,
    'the asking browser still can (the stranger did not spend it)',
  );
  // The same link again, even with the state: spent.
  const again = new WebClient(acmeUrl());
  again.setCookie('hamlet_handoff', state);
  assert.equal((await again.get(claim)).status, 400);
  assert.equal(again.cookie('hamlet_session'), undefined);
});

test('a ticket is spent only on the host it was minted for', async () => {
  const { acme, claim } = await handoff(await signedInOnApex());
  const state = new URL(claim, acmeUrl()).searchParams.get('state')!;
  for (const host of ['vault', 'elsewhere']) {
    const other = new WebClient(`http://${host}.localhost:${h.port}`);
    other.setCookie('hamlet_handoff', state);
    assert.equal((await other.get(claim)).status, 400, host);
    assert.equal(other.cookie('hamlet_session'), undefined, host);
  }
  assert.equal(
    (await acme.get(claim)).status,
    303,
    'refused elsewhere, the ticket is still good on its own host',
  );
});

test('a ticket is not a session: as a session cookie it signs nobody in, on the apex or the community host', async () => {
  const { claim } = await handoff(await signedInOnApex());
  const ticket = new URL(claim, acmeUrl()).searchParams.get('ticket')!;
  for (const base of [apexUrl(), acmeUrl()]) {
    const thief = new WebClient(base);
    thief.setCookie('hamlet_session', ticket);
    const page = visible((await thief.get('/account')).text);
    assert.doesNotMatch(page, /Nora/, base);
  }
});

test("a real session's token is never taken as a ticket", async () => {
  const apex = await signedInOnApex();
  const acme = new WebClient(acmeUrl());
  const go = await acme.get('/session/continue');
  const state = new URL(go.headers.location!).searchParams.get('state')!;
  const res = await acme.get(
    `/session/claim?ticket=${apex.cookie('hamlet_session')}&state=${state}`,
  );
  assert.equal(res.status, 400);
  assert.equal(acme.cookie('hamlet_session'), undefined);
  assert.match(
    visible((await apex.get('/')).text),
    /Sign out/,
    'and the apex session was not spent',
  );
});

test('a member of a private community reaches its own host: the unknown-host page offers the account, the hand-off opens it', async () => {
  const vault = new WebClient(`http://vault.localhost:${h.port}`);
  const closed = await vault.get('/latest');
  assert.equal(closed.status, 404, 'a visitor sees an unknown host');
  const unknown = await new WebClient(`http://nope.localhost:${h.port}`).get('/latest');
  assert.equal(closed.text, unknown.text, 'byte for byte the unknown-host page, link included');
  assert.match(visible(closed.text), /Continue with that account/);
  const apex = await signedInOnApex('vic@example.org');
  const go = await vault.get('/session/continue?next=%2Flatest');
  const back = await apex.get(pathOf(go.headers.location));
  assert.equal(back.status, 303, back.text);
  const claimed = await vault.get(pathOf(back.headers.location));
  assert.equal(claimed.status, 303);
  const open = await vault.get('/latest');
  assert.equal(open.status, 200);
  assert.match(visible(open.text), /Vault/);
});

test('for a host the person may not read, and for an unknown one, the apex answers alike', async () => {
  const apex = await signedInOnApex('nora@example.org');
  const answer = async (host: string) => {
    const client = new WebClient(`http://${host}:${h.port}`);
    const go = await client.get('/session/continue');
    assert.equal(go.status, 303);
    const res = await apex.get(pathOf(go.headers.location));
    return { status: res.status, text: res.text.replace(/name="_csrf" value="[^"]+"/g, '') };
  };
  const privateOne = await answer('vault.localhost');
  assert.equal(privateOne.status, 400);
  assert.deepEqual(privateOne, await answer('nope.localhost'));
});

test('the apex hands tickets to hosts of its own communities only, and asks to sign in first', async () => {
  const apex = await signedInOnApex();
  const state = 'a'.repeat(32);
  for (const back of [
    'http://evil.example/session/claim',
    `http://localhost:${h.port}/session/claim`,
    `http://nope.localhost:${h.port}/session/claim`,
    `http://acme.localhost:${h.port}/elsewhere`,
  ]) {
    const res = await apex.get(
      `/session/handoff?return=${encodeURIComponent(back)}&state=${state}`,
    );
    assert.equal(res.status, 400, back);
    assert.equal(res.headers.location, undefined);
  }
  const visitor = new WebClient(apexUrl());
  const res = await visitor.get(
    `/session/handoff?return=${encodeURIComponent(`http://acme.localhost:${h.port}/session/claim`)}&state=${state}`,
  );
  assert.equal(res.status, 303);
  assert.match(res.headers.location!, /^\/signin\?next=%2Fsession%2Fhandoff/);
});
