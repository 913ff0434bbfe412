// Signing in and signing up on the web, on both engines (sessions, accounts and the shared rate
// buckets live in the database): a session cookie that died elsewhere is cleared and its holder
// signs in again; failed password attempts count per account and address, so hammering an account
// from one address locks out that address only (successes never count); sign-up answers alike
// whether or not the e-mail address has an account, and leaves an existing account untouched.
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { visible, WebClient } from '../web/client.ts';
import { eachEngine } from './engines.ts';

const PASSWORD = 'correct horse battery';
const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.7';

async function hamlet(env: Record<string, string>): Promise<TestHamlet> {
  // Behind a proxy, so that each request can say which client address it comes from.
  const h = await startTestHamlet({
    ...env,
    HAMLET_TRUST_PROXY: '1',
    HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000',
  });
  await h.services.accounts.createUser(systemActor('test'), {
    email: 'ada@example.org',
    password: PASSWORD,
    name: 'Ada',
  });
  return h;
}

/** A browser at `ip` on the apex. */
function browserAt(h: TestHamlet, ip: string) {
  const client = new WebClient(h.hostUrl('localhost', ''));
  const headers = { 'x-forwarded-for': ip };
  return {
    client,
    get: (path: string) => client.get(path, headers),
    post: (path: string, fields: Record<string, string>, follow = true) =>
      client.post(path, fields, { headers, follow }),
    async signIn(password: string, email = 'ada@example.org') {
      await client.get('/signin', headers);
      return client.post('/signin', { email, password, next: '/' }, { headers, follow: false });
    },
  };
}

eachEngine(
  'a session cookie that ended elsewhere is cleared, and its holder signs in',
  async (engine) => {
    const h = await hamlet(engine.env);
    try {
      const laptop = browserAt(h, OWNER);
      assert.equal((await laptop.signIn(PASSWORD)).status, 303);
      const dead = laptop.client.cookie('hamlet_session')!;
      // The password is changed from another browser: every other session ends.
      const phone = browserAt(h, OWNER);
      assert.equal((await phone.signIn(PASSWORD)).status, 303);
      await phone.get('/account');
      const changed = await phone.post('/account/password', {
        current_password: PASSWORD,
        new_password: 'a brand new password',
      });
      assert.match(visible(changed.text), /Your password was changed/);
      // The laptop still holds the dead cookie: the next page clears it and shows a visitor's page.
      const page = await laptop.get('/signin');
      assert.equal(page.status, 200);
      assert.match(page.headers['set-cookie'] ?? '', /hamlet_session=;[^,]*Max-Age=0/i);
      assert.equal(laptop.client.cookie('hamlet_session'), undefined);
      // Signing in works at once, even when the browser sends the dead cookie along again.
      laptop.client.setCookie('hamlet_session', dead);
      const res = await laptop.post(
        '/signin',
        { email: 'ada@example.org', password: 'a brand new password', next: '/' },
        false,
      );
      assert.equal(res.status, 303, visible(res.text));
      assert.notEqual(laptop.client.cookie('hamlet_session'), dead);
      assert.match(visible((await laptop.get('/')).text), /Signed in as Ada/);
      assert.match(visible((await laptop.get('/account')).text), /Ada/);
    } finally {
      await h.stop();
    }
  },
);

eachEngine('hammering an account from one address locks out that address only', async (engine) => {
  const h = await hamlet(engine.env);
  try {
    const attacker = browserAt(h, ATTACKER);
    for (let i = 0; i < 10; i++) {
      const res = await attacker.signIn(`wrong guess ${i}`);
      assert.equal(res.status, 401, `guess ${i}`);
    }
    const locked = await attacker.signIn('wrong guess 10');
    assert.equal(locked.status, 429);
    assert.ok(Number(locked.headers['retry-after']) > 0);
    assert.match(visible(locked.text), /Too many (failed )?sign-in attempts for this account/);
    assert.equal((await attacker.signIn(PASSWORD)).status, 429, 'no guessing while locked');
    // The owner, from an address with no failures, signs in while the attacker keeps trying.
    const owner = browserAt(h, OWNER);
    assert.equal((await owner.signIn(PASSWORD)).status, 303, 'the owner is not locked out');
    assert.match(
      visible(locked.text),
      /Too many failed sign-in attempts for this account from this address\. Retry in \d+ s\./,
    );
    assert.match(visible((await owner.get('/')).text), /Signed in as Ada/);
    // Successes never count: twenty sign-ins from one address in a row all work.
    for (let i = 0; i < 20; i++)
      assert.equal((await browserAt(h, OWNER).signIn(PASSWORD)).status, 303, `sign-in ${i}`);
    // The attacker's address still has budget for other accounts, up to its own limit.
    assert.equal((await attacker.signIn('wrong', 'someone@example.org')).status, 401);
  } finally {
    await h.stop();
  }
});

eachEngine('one address has a budget of failures over every account', async (engine) => {
  const h = await hamlet(engine.env);
  try {
    const attacker = browserAt(h, ATTACKER);
    for (let i = 0; i < 50; i++)
      assert.equal((await attacker.signIn('wrong', `n${i}@example.org`)).status, 401, `${i}`);
    // The budget refills (50 per 15 minutes: one every 18 s), so a slow machine may have earned a
    // failure or two back while the 50 ran; spend those, then even the right password is refused.
    let extra = 0;
    while ((await attacker.signIn('wrong', `m${extra}@example.org`)).status === 401) extra++;
    assert.ok(extra <= 3, `${extra} more failures admitted past the budget of 50`);
    const refused = await attacker.signIn(PASSWORD);
    assert.equal(refused.status, 429);
    assert.match(visible(refused.text), /Too many failed sign-in attempts from this address\./);
    assert.equal((await browserAt(h, OWNER).signIn(PASSWORD)).status, 303);
  } finally {
    await h.stop();
  }
});

eachEngine(
  'sign-up signs a new account in; a taken address only with its own password, and otherwise tells nothing of the account',
  async (engine) => {
    const h = await hamlet(engine.env);
    try {
      const signUp = async (email: string, ip: string, password = 'mallory password') => {
        const b = browserAt(h, ip);
        await b.get('/signup');
        const posted = await b.post('/signup', { name: 'Mallory', email, password }, false);
        const shown = await b.get(new URL(posted.headers.location ?? '/x', 'http://x').pathname);
        return { b, posted, shown };
      };
      const fresh = await signUp('new@example.org', '192.0.2.1');
      const taken = await signUp('ada@example.org', '192.0.2.2');
      assert.equal(fresh.posted.status, 303);
      assert.equal(taken.posted.status, 303);
      assert.ok(fresh.b.client.cookie('hamlet_session'), 'the new account is signed in');
      assert.match(visible(fresh.shown.text), /Welcome, Mallory: your account is open/);
      assert.equal(taken.b.client.cookie('hamlet_session'), undefined, 'nobody is signed in');
      assert.equal(new URL(taken.posted.headers.location!, 'http://x').pathname, '/signin');
      assert.doesNotMatch(visible(taken.shown.text), /already exists|Ada/);
      assert.match(visible(taken.shown.text), /sign in with ada@example\.org/i);
      // The owner typing their own password is signed in, as on the sign-in page.
      const owner = await signUp('ada@example.org', '192.0.2.3', PASSWORD);
      assert.ok(owner.b.client.cookie('hamlet_session'));
      // The new account works; the existing one kept its password and name.
      assert.equal((await fresh.b.signIn('mallory password', 'new@example.org')).status, 303);
      assert.equal((await taken.b.signIn('mallory password')).status, 401);
      assert.equal((await browserAt(h, OWNER).signIn(PASSWORD)).status, 303);
      const ada = await h.store.people.getByEmail('ada@example.org');
      assert.equal(ada?.displayName, 'Ada');
    } finally {
      await h.stop();
    }
  },
);
