// Votes and "this worked" on the topic page, without JavaScript: a member upvotes a reply and sees
// the score and their pressed button, presses it again to take the vote back, downvotes once the
// community allows it; on the accepted answer they report "This worked" and the answer says so; a
// report that it did not work keeps its note; visitors see the score and a sign-in link; nobody gets
// vote buttons on their own post.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { visible, WebClient } from './client.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
let h: TestHamlet;
let acme: Community;
const base = () => `http://acme.localhost:${h.port}`;

async function person(name: string) {
  const email = `${name.toLowerCase()}@example.org`;
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  await h.services.accounts.addMember(system, acme, { email, role: 'member' });
  const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
  const actor = (await h.services.accounts.resolveWebSession(token))!;
  const client = new WebClient(base());
  await client.get('/signin');
  await client.post('/signin', { email, password: PASSWORD, next: '/' });
  return { client, actor };
}

/** A question by `asker` with one reply by `answerer`: the reply and the topic page's path. */
async function thread(
  asker: Awaited<ReturnType<typeof person>>,
  answerer: Awaited<ReturnType<typeof person>>,
  title: string,
  answer: string,
) {
  const made = await writeApplied(h.services.writes, asker.actor, acme, 'topic.create', {
    category: 'support',
    title,
    body: `${title}: what we tried, what happened.`,
  });
  const { post: reply } = await writeApplied(
    h.services.writes,
    answerer.actor,
    acme,
    'post.create',
    {
      topic: made.topic.id,
      body: answer,
    },
  );
  return { reply, path: `/t/${made.topic.slug}` };
}

/** The vote form of one post on the last page fetched, as text, and its buttons' states. */
function voteOf(html: string, postId: string) {
  const article = html.slice(html.indexOf(`id="post-${postId}"`));
  const form = article.slice(0, article.indexOf('</article>'));
  return {
    score: /Score (−?\d+)/.exec(visible(form))?.[1],
    upPressed:
      /aria-pressed="true"[^>]*>(<svg[^]*?<\/svg>)?<span class="visually-hidden">Upvote/.test(form),
    downPressed:
      /aria-pressed="true"[^>]*>(<svg[^]*?<\/svg>)?<span class="visually-hidden">Downvote/.test(
        form,
      ),
    hasUp: />Upvote[ <]/.test(form),
    hasDown: />Downvote[ <]/.test(form),
    text: visible(form),
  };
}

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(() => h.stop());

test('a member votes on a reply, takes the vote back, and downvotes where the community allows it', async () => {
  const asker = await person('Asker');
  const answerer = await person('Answerer');
  const voter = await person('Voter');
  const { reply, path } = await thread(
    asker,
    answerer,
    'Exports stop after the first thousand rows',
    'Raise the batch size in the exporter settings.',
  );

  let seen = voteOf((await voter.client.get(path)).text, reply.id);
  assert.equal(seen.score, '0');
  assert.ok(seen.hasUp && !seen.upPressed);
  assert.ok(!seen.hasDown, 'no downvote button while the community does not use downvotes');

  const voted = await voter.client.post(`${path}/vote`, { post: reply.id, value: '1' });
  assert.match(visible(voted.text), /You upvoted this post\./);
  seen = voteOf(voted.text, reply.id);
  assert.equal(seen.score, '1');
  assert.ok(seen.upPressed, 'the upvote button shows pressed');

  // Pressing the pressed button again takes the vote back.
  const back = await voter.client.post(`${path}/vote`, { post: reply.id, value: '0' });
  assert.match(visible(back.text), /Your vote was taken back\./);
  seen = voteOf(back.text, reply.id);
  assert.equal(seen.score, '0');
  assert.ok(!seen.upPressed);

  await h.services.feedback.setSettings(system, acme, { downvotes: true });
  seen = voteOf((await voter.client.get(path)).text, reply.id);
  assert.ok(seen.hasDown);
  const down = await voter.client.post(`${path}/vote`, { post: reply.id, value: '-1' });
  seen = voteOf(down.text, reply.id);
  assert.equal(seen.score, '−1');
  assert.ok(seen.downPressed);
  await h.services.feedback.setSettings(system, acme, { downvotes: false });

  // The author sees the score of their own reply, without buttons; visitors get a sign-in link.
  const own = voteOf((await answerer.client.get(path)).text, reply.id);
  assert.equal(own.score, '−1');
  assert.ok(!own.hasUp);
  const visitor = voteOf((await new WebClient(base()).get(path)).text, reply.id);
  assert.match(visitor.text, /Score −1 · Sign in to vote/);
});

test('on the accepted answer a member reports "This worked", and "It did not work" with a note', async () => {
  const asker = await person('Seeker');
  const answerer = await person('Helper');
  const user = await person('User');
  const other = await person('Other');
  const { reply, path } = await thread(
    asker,
    answerer,
    'The nightly backup fails on Sundays',
    'The weekly report writes to the same disk: move it.',
  );
  // Not accepted yet: no report form.
  assert.doesNotMatch((await user.client.get(path)).text, />This worked</);
  await asker.client.get(path);
  await asker.client.post(`${path}/accept`, { post: reply.id });

  await user.client.get(path);
  const worked = await user.client.post(`${path}/outcome`, { post: reply.id, worked: 'true' });
  const text = visible(worked.text);
  assert.match(text, /the answer now counts your confirmation/);
  assert.match(text, /You reported that this worked for you\./);
  assert.match(text, /[Cc]onfirmed by 1 person/);

  await other.client.get(path);
  const failed = await other.client.post(`${path}/outcome`, {
    post: reply.id,
    worked: 'false',
    note: 'Moved the report, still fails on Sundays.',
  });
  assert.match(visible(failed.text), /your report that it did not work was recorded/);
  assert.match(visible(failed.text), /confirmed by 1 person, 1 report it failed/);
  const outcomes = await h.store.community(acme.id).votes.signals([reply.id]);
  assert.equal(outcomes.get(reply.id)?.failed, 1);

  // The asker reads who reported it, that it did not work for them, and what they tried.
  const told = visible((await asker.client.get('/notifications')).text);
  assert.match(
    told,
    /Other says an answer in “The nightly backup fails on Sundays” did not work for them: “Moved the report, still fails on Sundays\.”/,
  );

  // The answer's author has no report form on their own answer.
  assert.doesNotMatch((await answerer.client.get(path)).text, />This worked</);
});
