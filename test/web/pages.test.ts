// The web pages over plain HTTP, as a browser without JavaScript sees them: security headers on
// every page type, session cookies, forms refused without their token or from another site,
// validation messages per field from the operation's schema, the ask form's server-side check for
// similar questions, images in posts as links, editing within the window, the path form, private
// communities, the network directory and creating a community.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { raw } from '../mcp/http-client.ts';
import { visible, WebClient } from './client.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
let h: TestHamlet;
let acme: Community;
const acmeUrl = () => `http://acme.localhost:${h.port}`;

async function signedIn(email: string, role?: 'owner' | 'moderator'): Promise<WebClient> {
  await h.services.accounts.createUser(system, {
    email,
    password: PASSWORD,
    name: email.split('@')[0],
  });
  if (role) await h.services.accounts.addMember(system, acme, { email, role });
  const client = new WebClient(acmeUrl());
  await client.get('/signin');
  const home = await client.post('/signin', { email, password: PASSWORD, next: '/' });
  assert.match(home.text, /Signed in as/);
  return client;
}

before(async () => {
  h = await startTestHamlet(
    {
      HAMLET_COMMUNITY_CREATION: '1',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000',
      HAMLET_RATE_LIMIT_SIGNUPS_PER_IP_PER_HOUR: '3',
    },
    { demo: true },
  );
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(() => h.stop());

test('every page type carries the security headers; no page has inline script', async () => {
  const paths = [
    ['acme.localhost', '/'],
    ['acme.localhost', '/t/verifying-the-hamlet-signature-header'],
    ['acme.localhost', '/search?q=webhook'],
    ['acme.localhost', '/signin'],
    ['acme.localhost', '/signup'],
    ['acme.localhost', '/categories/support'],
    ['localhost', '/'],
    ['localhost', '/c/acme'],
    ['acme.localhost', '/t/no-such-topic'],
    ['nope.localhost', '/'],
  ] as const;
  for (const [host, path] of paths) {
    const res = await raw(h.hostUrl(host, path));
    const csp = res.headers['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'none'/, `${host}${path}`);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'same-origin');
    assert.doesNotMatch(res.text, /<script(?![^>]*\ssrc=)/i, `${host}${path}: inline script`);
    assert.doesNotMatch(
      res.text,
      /\son[a-z]+=|style="/i,
      `${host}${path}: inline handlers or styles`,
    );
  }
});

test('the session cookie is HttpOnly and SameSite=Lax, and Secure with the __Host- prefix behind TLS', async () => {
  await h.services.accounts.createUser(system, { email: 'cookie@example.org', password: PASSWORD });
  const client = new WebClient(acmeUrl());
  await client.get('/signin');
  const res = await client.post(
    '/signin',
    { email: 'cookie@example.org', password: PASSWORD },
    { follow: false },
  );
  assert.equal(res.status, 303);
  assert.match(res.headers['set-cookie']!, /hamlet_session=[^;]+;[^,]*HttpOnly/);
  assert.match(res.headers['set-cookie']!, /hamlet_session=[^;]+;[^,]*SameSite=Lax/);
  assert.doesNotMatch(res.headers['set-cookie']!, /Secure/);

  const tls = await startTestHamlet({ HAMLET_PUBLIC_SCHEME: 'https' });
  try {
    const page = await raw(tls.hostUrl('localhost', '/signin'));
    assert.match(page.headers['set-cookie']!, /^__Host-hamlet_csrf=[^;]+;.*Secure/);
    assert.match(page.headers['strict-transport-security']!, /max-age=/);
  } finally {
    await tls.stop();
  }
});

test('a form without its token, or posted from another site, changes nothing', async () => {
  const client = await signedIn('csrf@example.org');
  await client.get('/t/verifying-the-hamlet-signature-header');
  const noToken = await client.post(
    '/t/verifying-the-hamlet-signature-header/reply',
    { body: 'forged reply' },
    { csrf: null },
  );
  assert.equal(noToken.status, 403);
  const token = client.csrf.bind(client);
  const crossSite = await client.post(
    '/t/verifying-the-hamlet-signature-header/reply',
    { body: 'forged reply' },
    { csrf: token(), headers: { origin: 'https://attacker.example' } },
  );
  assert.equal(crossSite.status, 403);
  assert.match(visible(crossSite.text), /This form has expired/);
  const page = await client.get('/t/verifying-the-hamlet-signature-header');
  assert.doesNotMatch(page.text, /forged reply/);
});

test('forms show the operation’s own messages next to each field and keep what was typed', async () => {
  const client = await signedIn('asker@example.org');
  await client.get('/ask');
  const res = await client.post('/ask', {
    action: 'post',
    category: 'support',
    title: 'short',
    body: 'Some question body here',
    tags: 'Not A Tag!',
  });
  assert.equal(res.status, 400);
  assert.match(
    res.text,
    /<p class="field-error" id="title-error">must be at least 8 characters<\/p>/,
  );
  assert.match(
    res.text,
    /id="title" name="title" required aria-describedby="title-hint title-error" aria-invalid="true"/,
  );
  assert.match(res.text, /tags are 1-32 characters/);
  assert.match(res.text, /Some question body here<\/textarea>/);
});

test('without JavaScript, "Check for similar questions" lists them on the server before posting', async () => {
  const client = await signedIn('nojs@example.org');
  await client.get('/ask');
  const res = await client.post('/ask', {
    action: 'check',
    category: 'support',
    title: 'How can I run Hamlet with PostgreSQL?',
    body: '',
  });
  assert.equal(res.status, 200);
  assert.match(
    visible(res.text),
    /Similar questions .* How do I run Hamlet on PostgreSQL instead of SQLite\? Solved/,
  );
  assert.match(res.text, /value="How can I run Hamlet with PostgreSQL\?"/);
  const json = await client.get('/ask/similar?title=hamlet-signature%20header%20verification');
  assert.equal(json.json().similar[0].title, 'Verifying the hamlet-signature header');
});

test('images in posts are links, never loaded; a post can be edited by its author within the window', async () => {
  const client = await signedIn('images@example.org');
  await client.get('/ask');
  const posted = await client.post('/ask', {
    action: 'post',
    category: 'support',
    title: 'A chart that shows the problem',
    body: 'See ![the chart](https://attacker.example/track.png)',
  });
  assert.doesNotMatch(posted.text, /<img/i);
  assert.match(
    posted.text,
    /<a href="https:\/\/attacker.example\/track.png" rel="nofollow noopener noreferrer ugc">Image: the chart \(attacker.example\)<\/a>/,
  );
  const edit = posted.text.match(
    /href="(\/t\/a-chart-that-shows-the-problem\/edit\/[0-9a-f-]+)"/,
  )![1]!;
  await client.get(edit);
  const saved = await client.post(edit, {
    title: 'A chart that shows the whole problem',
    body: 'The chart is gone now.',
  });
  assert.match(visible(saved.text), /Your changes were saved/);
  assert.match(saved.text, /<h1>A chart that shows the whole problem<\/h1>/);
  assert.match(visible(saved.text), /edited just now/);
  // Someone else sees no edit link and is refused.
  const other = await signedIn('other@example.org');
  const page = await other.get('/t/a-chart-that-shows-the-problem');
  assert.doesNotMatch(page.text, /\/edit\//);
  const refused = await other.post(edit, { body: 'vandalism here' }, { csrf: other.csrf() });
  assert.equal(refused.status, 403);
  assert.match(visible(refused.text), /You can only edit your own posts/);
});

test('the path form /c/<slug> serves the community on any host, with links that stay in it', async () => {
  const res = await raw(h.hostUrl('localhost', '/c/acme/t/verifying-the-hamlet-signature-header'));
  assert.equal(res.status, 200);
  assert.match(res.text, /<h1>Verifying the hamlet-signature header<\/h1>/);
  assert.match(res.text, /href="\/c\/acme\/categories\/support"/);
  assert.doesNotMatch(res.text, /href="\/t\//);
  const home = await raw(h.hostUrl('localhost', '/c/acme/'));
  assert.equal(home.status, 200);
  assert.equal(home.text, (await raw(h.hostUrl('localhost', '/c/acme'))).text);
});

test('private communities answer 404 to visitors and outsiders, and show to members', async () => {
  for (const path of [
    '/c/skunkworks',
    '/c/skunkworks/t/project-falcon-launch-checklist',
    '/c/skunkworks/search?q=falcon',
  ]) {
    const res = await raw(h.hostUrl('localhost', path));
    assert.equal(res.status, 404, path);
    assert.doesNotMatch(res.text, /Falcon|Skunkworks/, path);
  }
  const skunk = (await h.store.communities.getBySlug('skunkworks'))!;
  await h.services.accounts.createUser(system, {
    email: 'insider@example.org',
    password: PASSWORD,
  });
  await h.services.accounts.addMember(system, skunk, {
    email: 'insider@example.org',
    role: 'member',
  });
  // A private community's host is an unknown host to a visitor: members sign in (on the apex here,
  // or on the address's own sign-in, test/web/private-signin.test.ts) and reach it in the path form,
  // where their session cookie goes.
  const client = new WebClient(`http://localhost:${h.port}`);
  await client.get('/signin');
  const home = await client.post('/signin', {
    email: 'insider@example.org',
    password: PASSWORD,
    next: '/c/skunkworks',
  });
  assert.match(home.text, /Project Falcon: launch checklist/);
});

test('moderators and administrators only: others are told, visitors sent to sign in', async () => {
  assert.match(
    (await raw(`${acmeUrl()}/approvals`)).headers.location!,
    /\/signin\?next=%2Fapprovals/,
  );
  const member = await signedIn('plain@example.org');
  for (const [path, message] of [
    ['/approvals', /Only moderators of "acme"/],
    ['/admin/agents', /Only an administrator of "acme"/],
    ['/admin/settings', /Only an administrator of "acme"/],
  ] as const) {
    const res = await member.get(path);
    assert.equal(res.status, 403, path);
    assert.match(visible(res.text), message);
  }
});

test('an administrator makes the community private: the network stops listing it', async () => {
  const owner = await signedIn('boss@example.org', 'owner');
  await owner.get('/admin/settings');
  const saved = await owner.post('/admin/settings', {
    name: 'Acme',
    description: acme.description,
    guidelines: acme.guidelines,
    visibility: 'private',
  });
  assert.match(visible(saved.text), /Settings saved: the community is private/);
  assert.doesNotMatch((await raw(h.hostUrl('localhost', '/'))).text, /Acme/);
  assert.equal((await raw(`${acmeUrl()}/`)).status, 404);
  await owner.post(
    '/admin/settings',
    {
      name: 'Acme',
      description: acme.description,
      guidelines: acme.guidelines,
      visibility: 'public',
    },
    { csrf: owner.csrf() },
  );
  assert.match((await raw(h.hostUrl('localhost', '/'))).text, /Acme/);

  const preview = await owner.post('/admin/settings/mcp', {
    action: 'preview',
    config: '{"tool_mode":"two-tool","search_limit":5}',
  });
  assert.match(visible(preview.text), /2 tools \(two-tool mode\)/);
  const bad = await owner.post('/admin/settings/mcp', {
    action: 'save',
    config: '{"tool_mode":"three"}',
  });
  assert.equal(bad.status, 400);
  assert.match(visible(bad.text), /tool_mode/);
});

test('the apex lists public communities; a signed-in person creates one and owns it', async () => {
  const apex = new WebClient(h.hostUrl('localhost', ''));
  const home = await apex.get('/');
  assert.match(home.text, /<h1>Hamlet communities<\/h1>/);
  // Locally listed in the path form, which every MCP client resolves.
  assert.match(home.text, /MCP: <code>http:\/\/localhost:\d+\/c\/acme\/api\/mcp<\/code>/);
  assert.doesNotMatch(home.text, /skunkworks/i);
  await apex.get('/signup');
  await apex.post('/signup', { name: 'Founder', email: 'founder@example.org', password: PASSWORD });
  await apex.post('/signin', { email: 'founder@example.org', password: PASSWORD, next: '/' });
  await apex.get('/new');
  const created = await apex.post('/new', {
    name: 'Birders',
    slug: 'birders',
    description: 'Birds.',
    visibility: 'public',
  });
  assert.match(visible(created.text), /Birders is ready/);
  const birders = (await h.store.communities.getBySlug('birders'))!;
  assert.equal((await h.store.community(birders.id).access.members.list())[0]!.role, 'owner');
  const search = await apex.get('/search?q=signature');
  assert.match(search.text, /Verifying the hamlet-signature header/);
});

test('sign-up is limited per address, and says how long to wait', async () => {
  let last = await raw(`${acmeUrl()}/signup`);
  for (let i = 0; i < 5 && last.status !== 429; i++) {
    const client = new WebClient(acmeUrl());
    await client.get('/signup');
    last = await client.post(
      '/signup',
      { name: `n${i}`, email: `many${i}@example.org`, password: PASSWORD },
      { follow: false },
    );
  }
  assert.equal(last.status, 429);
  assert.match(
    visible(last.text),
    /Too many new accounts from this address \(3 an hour\)\. Retry in \d+ s\./,
  );
  assert.ok(Number(last.headers['retry-after']) > 0);
});

test('the search page: empty filters keep the panel closed, errors name the field as shown, results name their category', async () => {
  const acmePage = (path: string) => raw(`${acmeUrl()}${path}`);
  const plain = await acmePage(
    '/search?q=webhook&category=&tags=&author=&since=&until=&source_types=',
  );
  assert.equal(plain.status, 200);
  assert.match(plain.text, /<details><summary>Filters<\/summary>/, 'the panel stays closed');
  const filtered = await acmePage('/search?q=webhook&author=a');
  assert.match(filtered.text, /<details open><summary>Filters/, 'a set filter opens it');

  const bad = await acmePage(`/search?q=webhook&tags=ok,${'x'.repeat(80)}`);
  assert.equal(bad.status, 400);
  const summary = /<div class="notice error" role="alert">([\s\S]*?)<\/div>/.exec(bad.text)![1]!;
  assert.doesNotMatch(summary, /filters\./, 'no internal field name');
  const anchor = /<a href="#([^"]+)">Tags<\/a>/.exec(summary)?.[1];
  assert.ok(anchor, summary);
  assert.match(bad.text, new RegExp(`id="${anchor}"`), 'the link reaches the field');

  const found = await acmePage('/search?q=webhook+signature');
  const categories = await h.services.content.listCategories(system, acme);
  const metas = [...found.text.matchAll(/<span class="meta">([^<]*) · [a-z ]+ by /g)].map(
    (m) => m[1]!,
  );
  assert.ok(metas.length > 0);
  for (const m of metas)
    assert.ok(
      categories.some((k) => k.name === m),
      `"${m}" is a category name`,
    );
});

test('the search page requires every word; when no topic has them all it shows those with any, and says so', async () => {
  const acmePage = (path: string) => raw(`${acmeUrl()}${path}`);
  const status = (t: string) => visible(/<p role="status">([\s\S]*?)<\/p>/.exec(t)?.[1] ?? '');
  const count = (t: string) => Number(/(\d+) topics? /.exec(status(t))?.[1] ?? -1);

  const none = await acmePage('/search?q=zzqqxx');
  assert.match(status(none.text), /^0 topics found for “zzqqxx”\.$/);
  const any = (await acmePage('/search?q=zzqqxx-nothing&words=any')).text;
  assert.ok(count(any) > 0, 'some topics hold "nothing"');
  assert.match(status(any), /found for “zzqqxx-nothing” \(any of the words\)/);
  const fellBack = (await acmePage('/search?q=zzqqxx-nothing')).text;
  assert.equal(
    status(fellBack),
    `No topic has all of the words “zzqqxx-nothing”: ${count(any)} topic${count(any) === 1 ? '' : 's'} with some of them.`,
  );

  // Every word required: fewer topics than any word, each holding both.
  const both = (await acmePage('/search?q=agent+key')).text;
  const either = (await acmePage('/search?q=agent+key&words=any')).text;
  assert.ok(count(both) >= 1 && count(both) < count(either), `${count(both)} < ${count(either)}`);
  assert.match(status(both), /^\d+ topics? found for “agent key”\.$/);
});

test('the search page sorts by newest: the choice is kept, the panel stays closed, the newest topic comes first', async () => {
  const scope = h.store.community(acme.id);
  const category = (await scope.categories.getBySlug('general'))!;
  const author = { kind: 'person' as const, id: null, name: 'Sorter' };
  const made = async (title: string, body: string, createdAt: string) => {
    const t = await scope.topics.create({
      categoryId: category.id,
      slug: `sort-${createdAt.slice(0, 4)}`,
      title,
      author,
      createdAt,
    });
    await scope.posts.create({ topicId: t.id, author, body, createdAt });
  };
  await made(
    'Zyxwombat zyxwombat burrows',
    'How deep does a zyxwombat dig?',
    '2021-01-01T00:00:00.000Z',
  );
  await made('Garden visitors', 'A zyxwombat crossed the lawn.', '2025-01-01T00:00:00.000Z');
  const titles = (text: string) =>
    [
      ...(/<ol class="topics">([\s\S]*?)<\/ol>/.exec(text)?.[1] ?? '').matchAll(
        /<li><a href="[^"]*">([^<]*)<\/a>/g,
      ),
    ].map((m) => m[1]!);
  const best = await raw(`${acmeUrl()}/search?q=zyxwombat`);
  assert.deepEqual(titles(best.text), ['Zyxwombat zyxwombat burrows', 'Garden visitors']);
  const newest = await raw(`${acmeUrl()}/search?q=zyxwombat&sort=newest`);
  assert.equal(newest.status, 200);
  assert.match(newest.text, /<details><summary>Filters<\/summary>/, 'the panel stays closed');
  assert.match(newest.text, /<option value="newest" selected>Newest<\/option>/);
  assert.deepEqual(titles(newest.text), ['Garden visitors', 'Zyxwombat zyxwombat burrows']);
});

test('the search page finds an author by the start of their name, whatever the case', async () => {
  const exact = await raw(`${acmeUrl()}/search?q=webhook&author=Dana+(demo)`);
  const start = await raw(`${acmeUrl()}/search?q=webhook&author=dana`);
  const count = (text: string) => /(\d+) topics? found/.exec(text)?.[1];
  assert.ok(Number(count(exact.text)) > 0, 'the demo has posts by Dana (demo)');
  assert.equal(count(start.text), count(exact.text));
});

test('people read pages and buttons, never tools or commands: a missing topic, a queued reply, an unknown member', async () => {
  const missing = await raw(`${acmeUrl()}/t/no-such-topic`);
  assert.equal(missing.status, 404);
  assert.doesNotMatch(visible(missing.text), /list_topics|get_topic|slug/);

  const client = await signedIn('queued-words@example.org');
  await h.services.approvals.setPolicy(system, acme, { kind: 'post.create', mode: 'approval' });
  try {
    await client.get('/t/verifying-the-hamlet-signature-header');
    const sent = await client.post('/t/verifying-the-hamlet-signature-header/reply', {
      body: 'Would the reviewer please look at this reply?',
    });
    const notice = visible(/<div class="notice ok"[\s\S]*?<\/div>/.exec(sent.text)![0]);
    assert.match(notice, /moderator/);
    assert.doesNotMatch(notice, /get_approval|approval_id|pending/);
  } finally {
    await h.services.approvals.setPolicy(system, acme, { kind: 'post.create', mode: 'auto' });
  }
  // A queued question says what happens next in words too.
  await h.services.approvals.setPolicy(system, acme, { kind: 'topic.create', mode: 'approval' });
  try {
    await client.get('/ask');
    const asked = await client.post('/ask', {
      action: 'post',
      category: 'support',
      title: 'Would a moderator see this question first?',
      body: 'A question that waits for a moderator before it is published.',
    });
    const notice = visible(/<div class="notice ok"[\s\S]*?<\/div>/.exec(asked.text)![0]);
    assert.match(notice, /moderator of this community reviews it/);
    assert.doesNotMatch(notice, /get_approval|approval_id|pending|"acme"/);
  } finally {
    await h.services.approvals.setPolicy(system, acme, { kind: 'topic.create', mode: 'auto' });
  }

  const owner = await signedIn('words-owner@example.org', 'owner');
  await owner.get('/admin/members');
  const added = await owner.post('/admin/members', {
    email: 'nobody-yet@example.org',
    role: 'member',
  });
  assert.match(visible(added.text), /sign up first/);
  assert.doesNotMatch(visible(added.text), /hamlet user create/);
});
