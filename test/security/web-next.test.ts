// Where a `next` may send the browser after signing in: a path on the same origin only. Every place
// that reads `next` (the sign-in page and its form, a community host's "continue with that
// account", the apex's hand-off, the community host's claim) falls back to the home page for a
// target off the origin, however it is spelled (`/%09/evil.example/` is `//evil.example/` to a
// browser, which drops tabs and newlines from URLs; a newline must never reach a Location header),
// and in Chromium the browser stays on our origin.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { safeNext } from '../../src/web/respond.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { chromiumAvailable, contextFor, launch } from '../web/browser-kit.ts';
import { WebClient } from '../web/client.ts';

const PASSWORD = 'correct horse battery';
let h: TestHamlet;
let nora: string;
const apexUrl = () => `http://localhost:${h.port}`;
const acmeUrl = () => `http://acme.localhost:${h.port}`;

/** Off-site targets, as they would stand in a query string. */
const BAD = [
  '/%09/evil.example/',
  '/%0a/x',
  '/%0d%0aSet-Cookie:%20x=1',
  '//evil.example/',
  '/%5Cevil.example/',
  '/%5C/evil.example/',
  '/%252F/evil.example/',
  '/%255C/evil.example/',
  '/..//evil.example/',
  '/.//evil.example/',
  '%2F%2Fevil.example/',
  'https://evil.example/',
  'javascript:alert(1)',
  '/%00/x',
];

/** The value a browser sends, decoded once (as the form posts it). */
const decoded = (q: string) => new URLSearchParams(`next=${q}`).get('next')!;

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  const person = await h.services.accounts.createUser(systemActor('test'), {
    email: 'nora@example.org',
    password: PASSWORD,
    name: 'Nora',
  });
  nora = person.id;
});
after(() => h.stop());

async function signedIn(base: string): Promise<WebClient> {
  const client = new WebClient(base);
  await client.get('/signin');
  const res = await client.post('/signin', {
    email: 'nora@example.org',
    password: PASSWORD,
    next: '/',
  });
  assert.equal(res.status, 200);
  return client;
}

test('safeNext keeps paths of this origin and refuses every other target', () => {
  assert.equal(safeNext('/latest', '/'), '/latest');
  assert.equal(safeNext('/c/acme/t/x?page=2#reply', '/'), '/c/acme/t/x?page=2#reply');
  assert.equal(safeNext('/t/café', '/'), '/t/caf%C3%A9', 'fit for a Location header');
  assert.equal(safeNext('/search?q=a%5Cb', '/'), '/search?q=a%5Cb', 'a query may hold anything');
  for (const q of BAD) assert.equal(safeNext(decoded(q), '/home'), '/home', q);
  for (const raw of ['/\t/evil.example/', '/\\evil.example', '/a\nb', '', undefined])
    assert.equal(safeNext(raw, '/home'), '/home', JSON.stringify(raw));
});

test('the sign-in page and its form send nobody off the origin', async () => {
  for (const [base, home] of [
    [apexUrl(), '/'],
    [acmeUrl(), '/'],
    [apexUrl(), '/c/acme'],
  ] as const) {
    const prefix = home === '/' ? '' : '/c/acme';
    for (const q of BAD) {
      const client = new WebClient(base);
      const page = await client.get(`${prefix}/signin?next=${q}`);
      assert.equal(page.status, 200, `${base} ${q}`);
      assert.match(page.text, new RegExp(`name="next" value="${home}"`), `${base} ${q}`);
      if (base === acmeUrl())
        assert.match(page.text, /href="\/session\/continue\?next=%2F"/, `continue link, ${q}`);
      const res = await client.post(
        `${prefix}/signin`,
        { email: 'nora@example.org', password: PASSWORD, next: decoded(q) },
        { follow: false },
      );
      assert.equal(res.status, 303, `${base} POST ${q}`);
      assert.equal(res.headers.location, home, `${base} POST ${q}`);
    }
  }
  const kept = new WebClient(apexUrl());
  await kept.get('/signin');
  const res = await kept.post(
    '/signin',
    { email: 'nora@example.org', password: PASSWORD, next: '/c/acme/latest' },
    { follow: false },
  );
  assert.equal(res.headers.location, '/c/acme/latest', 'a path of this origin is kept');
});

test('the hand-off passes on, and ends on, a path of the community host only', async () => {
  const apex = await signedIn(apexUrl());
  for (const q of BAD) {
    const acme = new WebClient(acmeUrl());
    // Step 1: the community host sends the browser to the apex with a safe next.
    const go = await acme.get(`/session/continue?next=${q}`);
    assert.equal(go.status, 303, q);
    const toApex = new URL(go.headers.location!);
    assert.equal(toApex.searchParams.get('next'), '/', q);
    // Step 2: the apex, given a bad next directly, hands back a safe one.
    toApex.searchParams.set('next', decoded(q));
    const back = await apex.get(toApex.pathname + toApex.search);
    assert.equal(back.status, 303, q);
    const claim = new URL(back.headers.location!);
    assert.equal(claim.host, `acme.localhost:${h.port}`, q);
    assert.equal(claim.searchParams.get('next'), '/', q);
    // Step 3: the claim, given a bad next directly, lands on the home page.
    claim.searchParams.set('next', decoded(q));
    const claimed = await acme.get(claim.pathname + claim.search);
    assert.equal(claimed.status, 303, q);
    assert.equal(claimed.headers.location, '/', q);
  }
});

if (chromiumAvailable('Chromium stays on the origin whatever next says')) {
  test('Chromium stays on the origin whatever next says', async () => {
    const browser = await launch();
    try {
      for (const q of ['/%09/evil.example/', '/%5C/evil.example/', '/..//evil.example/']) {
        // Signed in on the apex already (a session cookie), as the reported case was.
        const { token } = await h.services.accounts.createWebSession(nora);
        const context = await contextFor(browser, h, 'localhost', token);
        const page = await context.newPage();
        const hosts = new Set<string>();
        page.on('request', (r) => hosts.add(new URL(r.url()).host));
        const foreign = () =>
          [...hosts].filter((x) => x !== `localhost:${h.port}` && x !== `acme.localhost:${h.port}`);
        // Where the browser went (a navigation off-site fails, and is seen in the requests).
        const landOn = (url: string) =>
          page.waitForURL(url, { timeout: 10_000 }).catch(() => undefined);
        // A community host's continue, with next in the address: through the apex and back.
        await page.goto(`${acmeUrl()}/session/continue?next=${q}`).catch(() => undefined);
        await landOn(`${acmeUrl()}/`);
        assert.deepEqual(foreign(), [], `${q}: the hand-off led nowhere else`);
        assert.equal(page.url(), `${acmeUrl()}/`, q);
        // The apex's sign-in form, with next in the address.
        await context.clearCookies();
        await page.goto(`${apexUrl()}/signin?next=${q}`);
        await page.fill('input[name=email]', 'nora@example.org');
        await page.fill('input[name=password]', PASSWORD);
        await Promise.all([landOn(`${apexUrl()}/`), page.click('button[type=submit]')]);
        assert.deepEqual(foreign(), [], `${q}: the sign-in form led nowhere else`);
        assert.equal(page.url(), `${apexUrl()}/`, q);
        assert.match((await page.textContent('body')) ?? '', /Signed in as Nora/, q);
        await context.close();
      }
    } finally {
      await browser.close();
    }
  });
}
