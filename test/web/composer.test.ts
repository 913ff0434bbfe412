// The composer as a browser without JavaScript uses it: Preview renders the text on the server
// (and keeps it as a draft), Save draft survives signing out and comes back after signing in, a
// reply posted after the session ended keeps its text and keeps it as the draft on signing in
// again, Quote and Reply start the reply with a link to the post, and that post links back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { fileHamlet } from '../helpers/in-process.ts';
import { visible, WebClient } from './client.ts';

const hamlet = fileHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
const PASSWORD = 'correct horse battery';
const TOPIC = 'verifying-the-hamlet-signature-header';
let n = 0;

async function person() {
  const h = await hamlet();
  const email = `writer${++n}@example.org`;
  await h.services.accounts.createUser(systemActor('test'), {
    email,
    password: PASSWORD,
    name: `Writer ${n}`,
  });
  const client = new WebClient(`http://${h.host('acme')}`);
  await client.get('/signin');
  const home = await client.post('/signin', { email, password: PASSWORD, next: '/' });
  assert.match(home.text, /Signed in as/);
  return { client, email };
}

const textarea = (html: string) =>
  /<textarea[^>]*name="body"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? '';

test('Preview renders the reply on the server without posting it, and keeps it as a draft', async () => {
  const { client } = await person();
  await client.get(`/t/${TOPIC}`);
  const shown = await client.post(`/t/${TOPIC}/reply`, {
    body: 'A **bold** claim with `code`',
    action: 'preview',
  });
  assert.equal(shown.status, 200);
  assert.match(
    shown.text,
    /<h3 id="preview-h">Preview<\/h3><div class="post-body"><p>A <strong>bold<\/strong> claim with <code>code<\/code><\/p>/,
  );
  assert.equal(textarea(shown.text), 'A **bold** claim with `code`', 'the text stays in the form');
  assert.doesNotMatch(visible(shown.text), /Your reply was posted/);
  const again = await client.get(`/t/${TOPIC}`);
  assert.equal(textarea(again.text), 'A **bold** claim with `code`', 'kept as the draft');
  assert.match(visible(again.text), /Your draft \(saved just now\) is back/);
});

test('a saved draft survives signing out and comes back after signing in; posting clears it', async () => {
  const { client, email } = await person();
  await client.get(`/t/${TOPIC}`);
  const saved = await client.post(`/t/${TOPIC}/reply`, {
    body: 'Half a thought about signatures',
    action: 'draft',
  });
  assert.match(visible(saved.text), /Draft saved/);
  await client.post('/signout', {});
  const out = await client.get(`/t/${TOPIC}`);
  assert.doesNotMatch(out.text, /Half a thought/, 'not shown to a visitor');
  await client.get('/signin');
  await client.post('/signin', { email, password: PASSWORD, next: `/t/${TOPIC}` });
  const back = await client.get(`/t/${TOPIC}`);
  assert.equal(textarea(back.text), 'Half a thought about signatures');
  const posted = await client.post(`/t/${TOPIC}/reply`, {
    body: 'Half a thought about signatures, finished.',
  });
  assert.match(visible(posted.text), /Your reply was posted/);
  assert.equal(textarea(posted.text), '', 'the draft is gone once posted');
});

test('a reply sent after the session ended keeps its text, and signing in again keeps it as the draft', async () => {
  const { client, email } = await person();
  await client.get(`/t/${TOPIC}`);
  const token = client.csrf();
  // The session ends (signed out in another tab): this form's token is no longer valid.
  await client.post('/signout', {});
  const refused = await client.post(
    `/t/${TOPIC}/reply`,
    { body: 'A long reply I would hate to lose' },
    { csrf: token },
  );
  assert.equal(refused.status, 403);
  assert.match(visible(refused.text), /Your text is safe/);
  assert.equal(
    /<textarea id="kept" name="keep_body"[^>]*>([^<]*)</.exec(refused.text)?.[1],
    'A long reply I would hate to lose',
  );
  const fields = Object.fromEntries(
    [...refused.text.matchAll(/<input type="hidden" name="(keep_\w+|next)" value="([^"]*)">/g)].map(
      (m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')],
    ),
  );
  const signedIn = await client.post('/signin', {
    ...fields,
    keep_body: 'A long reply I would hate to lose',
    email,
    password: PASSWORD,
  });
  assert.equal(textarea(signedIn.text), 'A long reply I would hate to lose');
});

test('Quote and Reply start the reply with a link to the post; the post then lists the reply', async () => {
  const { client } = await person();
  const page = await client.get(`/t/${TOPIC}`);
  const first = /<article id="post-([0-9a-f-]{36})"/.exec(page.text)![1]!;
  assert.match(page.text, new RegExp(`href="/t/${TOPIC}\\?quote=${first}#reply"`));
  const quoting = await client.get(`/t/${TOPIC}?quote=${first}`);
  const start = textarea(quoting.text);
  assert.match(
    start,
    new RegExp(`^\\[[^\\]]+\\]\\(http://acme\\.[^)]*/t/${TOPIC}#post-${first}\\) wrote:\\n&gt; `),
  );
  const replying = await client.get(`/t/${TOPIC}?reply_to=${first}`);
  assert.match(textarea(replying.text), /^In reply to \[/);
  const body = `${textarea(replying.text).replace(/&gt;/g, '>')}I checked this too.`;
  const posted = await client.post(`/t/${TOPIC}/reply`, { body });
  assert.match(visible(posted.text), /Your reply was posted/);
  assert.match(
    posted.text,
    /<p class="meta replies">Replies to this: <a href="#post-[0-9a-f-]{36}">Writer \d+<\/a>/,
  );
});

test('"Write an article" offers only knowledge-base categories, previews, and publishes an article', async () => {
  const h = await hamlet();
  const { client, email } = await person();
  const acme = (await h.store.communities.getBySlug('acme'))!;
  await h.services.accounts.addMember(systemActor('test'), acme, { email, role: 'member' });
  const form = await client.get('/write');
  assert.equal(form.status, 200);
  const options = [...form.text.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
  const kb = (await h.services.content.listCategories(systemActor('test'), acme))
    .filter((k) => k.kind === 'knowledge_base')
    .map((k) => k.slug);
  assert.deepEqual(options, kb);
  const ask = await client.get('/ask');
  for (const slug of kb) assert.doesNotMatch(ask.text, new RegExp(`<option value="${slug}"`));
  const fields = {
    category: kb[0]!,
    title: 'Rotating webhook secrets safely',
    body: 'Rotate the secret, then **accept both** for five minutes.',
  };
  const preview = await client.post('/write', { ...fields, action: 'preview' });
  assert.match(preview.text, /<strong>accept both<\/strong>/);
  const done = await client.post('/write', fields);
  assert.match(visible(done.text), /Your article was published/);
  assert.match(visible(done.text), /Knowledge-base article/);
});
