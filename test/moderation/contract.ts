// Self-moderation through the faces, run once per engine (./sqlite.test.ts, ./postgres.test.ts):
// one flag per flagger per post and 20 concurrent flags counted exactly, trusted flags hiding a
// post (invisible to visitors and agents on the web, REST, MCP and search; shown to deciders with a
// notice), the review queue with why each item is there and its decisions reaching the flagger,
// first posts queued with the named reason, a new account's posts per day refused as a rate
// (rate_limited, with the wait), and a suspended agent's key refused with the reason
// and the end time on REST and MCP (a silenced one reads but does not write).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { PersonActor } from '../../src/domain/actor.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { readableTime } from '../../src/domain/moderation/sanctions.ts';
import { operationNamed } from '../../src/operations/catalogue.ts';
import { Pipeline, type Caller } from '../../src/operations/pipeline.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { raw, rpc } from '../mcp/http-client.ts';

export type Setup = () => Promise<{ env: Record<string, string>; cleanup?: () => Promise<void> }>;

const system = systemActor('test');
const PASSWORD = 'a long enough password';
let h: TestHamlet;
let acme: Community;
let pipeline: Pipeline;
let cleanup: (() => Promise<void>) | undefined;

const tag = () => randomBytes(3).toString('hex');

async function person(name: string, role: 'member' | 'moderator' = 'member') {
  const email = `${name.toLowerCase()}-${tag()}@example.org`;
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  await h.services.accounts.addMember(system, acme, { email, role });
  const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
  return { actor: (await h.services.accounts.resolveWebSession(token))!, email };
}
async function agent(scopes: string[] = ['post:create', 'topic:create'], trusted = false) {
  const name = `bot-${tag()}`;
  const made = await h.services.agents.create(system, acme, { name, scopes, trusted } as never);
  return { key: made.key, name, id: made.agent.id };
}
const as = (who: PersonActor): Caller => ({ community: acme, ip: '127.0.0.1', person: who });
async function call(name: string, caller: Caller, args: unknown = {}) {
  return pipeline.invoke(operationNamed('community', name)!, caller, args);
}
async function ok(name: string, caller: Caller, args: unknown = {}): Promise<any> {
  const outcome = await call(name, caller, args);
  assert.ok(outcome.ok, `${name}: ${JSON.stringify(outcome)}`);
  return outcome.value;
}
const api = (path: string, key?: string, init: { method?: string; body?: unknown } = {}) =>
  raw(h.hostUrl(`acme.${new URL(h.url).hostname}`, `/api/v1${path}`), {
    method: init.method ?? 'GET',
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
const web = (path: string) => raw(h.hostUrl(`acme.${new URL(h.url).hostname}`, path));
let rpcId = 0;
async function tool(key: string, name: string, args: object): Promise<any> {
  const res = await rpc(
    h.hostUrl(`acme.${new URL(h.url).hostname}`, '/api/mcp'),
    { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } },
    { accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
  );
  return res.json();
}

/** A topic by `asker` with one reply by `replier`; returns the topic and the reply's id. */
async function thread(asker: PersonActor, replier: PersonActor, word: string) {
  const t = await ok('create_topic', as(asker), {
    category: 'support',
    title: `How do I configure the ${word} option?`,
    body: `Where is the ${word} option documented?`,
  });
  const r = await ok('reply_to_topic', as(replier), {
    topic: t.topic.id,
    body: `Buy cheap ${word} pills at the link in my profile.`,
  });
  return { topic: t.topic as { id: string; slug: string }, post: r.post.id as string };
}

export function defineModerationServiceContract(engine: string, setup: Setup): void {
  describe(`moderation contract (${engine})`, () => {
    let moderator: PersonActor;
    let asker: PersonActor;
    let spammer: PersonActor;
    before(async () => {
      const s = await setup();
      cleanup = s.cleanup;
      h = await startTestHamlet(
        { HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '10000', ...s.env },
        { demo: true },
      );
      acme = (await h.store.communities.getBySlug('acme'))!;
      pipeline = new Pipeline(
        h.services,
        {
          mcp: (x) => `mcp:${x}`,
          web: (x) => `web:${x}`,
          inPathForm: (v) => v,
          listsPathForm: false,
        },
        h.logger,
      );
      moderator = (await person('Moderator', 'moderator')).actor;
      asker = (await person('Asker')).actor;
      spammer = (await person('Spammer')).actor;
    });
    after(async () => {
      await h?.stop();
      await cleanup?.();
    });

    test('one flag per flagger per post; "other" needs a note; nobody flags their own post', async () => {
      const { post } = await thread(asker, spammer, `once${tag()}`);
      const first = await ok('flag_post', as(asker), { post, reason: 'spam' });
      assert.equal(first.added, true);
      const again = await ok('flag_post', as(asker), { post, reason: 'off_topic' });
      assert.equal(again.added, false);
      assert.equal(again.reason, 'spam', 'the first flag stands');
      assert.equal(again.open_flags, 1);
      const other = await call('flag_post', as(moderator), { post, reason: 'other' });
      assert.equal(other.ok, false);
      assert.match(!other.ok ? other.message : '', /needs a note/);
      const own = await call('flag_post', as(spammer), { post, reason: 'spam' });
      assert.equal(!own.ok && own.code, 'forbidden');
    });

    test('20 agents flagging at once count exactly 20', async () => {
      const { post } = await thread(asker, spammer, `crowd${tag()}`);
      const bots = await Promise.all(Array.from({ length: 20 }, () => agent([])));
      const replies = await Promise.all(
        bots.map((b) =>
          api(`/posts/${post}/flags`, b.key, { method: 'POST', body: { reason: 'spam' } }),
        ),
      );
      assert.deepEqual([...new Set(replies.map((r) => r.status))], [200]);
      const flags = await h.store.community(acme.id).moderation.flagsOf(post);
      assert.equal(flags.length, 20);
      const review = await ok('review_queue', as(moderator), {});
      const item = review.items.find((i: { id: string }) => i.id === post);
      assert.equal(item.flags.length, 20);
      assert.match(item.why, /spam ×20/);
    });

    test('trusted flags hide a post from visitors and agents (web, REST, MCP, search), not from moderators', async () => {
      const word = `hidden${tag()}`;
      const { topic, post } = await thread(asker, spammer, word);
      await h.services.moderationSettings.set(system, acme, { flags_to_hide: 2 });
      const trusted = await Promise.all([agent([], true), agent([], true)]);
      const reader = await agent([]);
      // Before: everyone sees it.
      const before = await tool(reader.key, 'get_topic', { topic: topic.id });
      assert.ok(before.result.structuredContent.posts.some((p: { id: string }) => p.id === post));
      const flagged = await Promise.all(
        trusted.map((t) => tool(t.key, 'flag_post', { post, reason: 'spam' })),
      );
      assert.ok(
        flagged.some((f) => f.result?.structuredContent?.hidden),
        JSON.stringify(flagged),
      );

      const viaMcp = await tool(reader.key, 'get_topic', { topic: topic.id });
      assert.deepEqual(
        viaMcp.result.structuredContent.posts.map((p: { position: number }) => p.position),
        [1],
      );
      const viaRest = await api(`/topics/${topic.id}`, reader.key);
      assert.equal(viaRest.status, 200);
      assert.ok(!viaRest.text.includes(`cheap ${word} pills`));
      const page = await web(`/t/${topic.slug}`);
      assert.equal(page.status, 200);
      assert.ok(!page.text.includes(`cheap ${word} pills`), 'a visitor does not see it');
      const found = await api(`/search?q=${word}%20pills`, reader.key);
      assert.ok(
        !found.json().results.some((r: { source_id: string }) => r.source_id === post),
        'search leaves it out',
      );

      const seen = await ok('get_topic', as(moderator), { topic: topic.id });
      const hidden = seen.posts.find((p: { id: string }) => p.id === post);
      assert.equal(hidden?.hidden?.cause, 'flags', 'a moderator sees it, with why');
      await h.services.moderationSettings.set(system, acme, { flags_to_hide: 3 });
    });

    test('the review queue says why; hiding upholds the flags, tells the flagger and the author', async () => {
      const { topic, post } = await thread(asker, spammer, `review${tag()}`);
      await ok('flag_post', as(asker), { post, reason: 'inappropriate', note: 'Selling pills.' });
      await h.services.approvals.setPolicy(system, acme, { kind: 'post.create', mode: 'approval' });
      try {
        const bot = await agent(['post:create']);
        const queued = await tool(bot.key, 'reply_to_topic', {
          topic: topic.id,
          body: 'A reply that waits for a moderator.',
        });
        const approvalId = queued.result.structuredContent.approval_id;
        const { items } = await ok('review_queue', as(moderator), {});
        const flag = items.find((i: { id: string }) => i.id === post);
        assert.match(flag.why, /inappropriate; “Selling pills\.” \(Asker\)/);
        const approval = items.find((i: { id: string }) => i.id === approvalId);
        assert.match(approval.why, /approval_policy:post\.create/);
        const decided = await ok('decide_review', as(moderator), {
          kind: 'flag',
          id: post,
          decision: 'hide',
          reason: 'Spam.',
        });
        assert.equal(decided.flag.hidden, true);
        assert.equal(decided.flag.settled_flags, 1);
        const inbox = await ok('list_notifications', as(asker), {});
        assert.ok(inbox.notifications.some((n: { kind: string }) => n.kind === 'flag_upheld'));
        const authors = await ok('list_notifications', as(spammer), {});
        const told = authors.notifications.find((n: { kind: string }) => n.kind === 'post_hidden');
        assert.equal(told?.reason, 'Spam.');
        const after = await ok('review_queue', as(moderator), {});
        assert.ok(!after.items.some((i: { id: string }) => i.id === post));
        const refused = await call('review_queue', as(asker), {});
        assert.equal(!refused.ok && refused.code, 'forbidden');
      } finally {
        await h.services.approvals.setPolicy(system, acme, { kind: 'post.create', mode: 'auto' });
      }
    });

    test('a new account’s first post is queued with the reason first_post when the community says so', async () => {
      await h.services.moderationSettings.set(system, acme, {
        sandbox: { queue_first_post: true },
      });
      try {
        const newcomer = (await person('Newcomer')).actor;
        const { topic } = await thread(asker, moderator, `first${tag()}`);
        const out = await ok('reply_to_topic', as(newcomer), {
          topic: topic.id,
          body: 'My very first reply here.',
        });
        assert.equal(out.status, 'pending_approval');
        assert.equal(out.reason, 'first_post');
        assert.match(out.message, /^Queued: your first post in this community\./);
        const { items } = await ok('review_queue', as(moderator), {});
        const item = items.find((i: { id: string }) => i.id === out.approval_id);
        assert.match(item.why, /first_post/);
        // The author sees it in place on the topic: awaiting approval, then the decision.
        const mine = await ok('my_queued_replies', as(newcomer), { topic: topic.id });
        assert.equal(mine.writes[0].approval.status, 'pending');
        assert.match(mine.writes[0].why, /first post of a new account/);
        await ok('decide_review', as(moderator), {
          kind: 'approval',
          id: out.approval_id,
          decision: 'reject',
          reason: 'Please say which version you run.',
        });
        const decided = await ok('my_queued_replies', as(newcomer), { topic: topic.id });
        assert.equal(decided.writes[0].approval.status, 'rejected');
        assert.match(decided.writes[0].approval.message, /Please say which version you run/);
        const links = await call('reply_to_topic', as(newcomer), {
          topic: topic.id,
          body: [1, 2, 3, 4, 5, 6].map((i) => `https://example.org/${i}`).join(' '),
        });
        assert.equal(!links.ok && links.code, 'forbidden');
        assert.match(!links.ok ? links.message : '', /at most 5 links/);
      } finally {
        await h.services.moderationSettings.set(system, acme, {
          sandbox: { queue_first_post: false },
        });
      }
    });

    test('a new account’s posts per day are a rate: the next one is refused as rate_limited with the wait', async () => {
      await h.services.moderationSettings.set(system, acme, { sandbox: { posts_per_day: 2 } });
      try {
        const newcomer = (await person('Chatty')).actor;
        const { topic } = await thread(moderator, moderator, `rate${tag()}`);
        for (const n of [1, 2])
          await ok('reply_to_topic', as(newcomer), { topic: topic.id, body: `Reply number ${n}.` });
        const third = await call('reply_to_topic', as(newcomer), {
          topic: topic.id,
          body: 'Reply number 3.',
        });
        assert.equal(!third.ok && third.code, 'rate_limited');
        assert.match(
          !third.ok ? third.message : '',
          /at most 2 posts a day.*You can post again in 24 hours/,
        );
        // The wait ends when the oldest post of the last day leaves the window: just under a day.
        const wait = !third.ok ? (third.retryAfterSeconds ?? 0) : 0;
        assert.ok(wait > 23 * 3600 && wait <= 24 * 3600, `retry after ${wait} s`);
        // Someone trusted (a moderator) is not counted against the sandbox.
        await ok('reply_to_topic', as(moderator), {
          topic: topic.id,
          body: 'A moderator replies.',
        });
      } finally {
        await h.services.moderationSettings.set(system, acme, { sandbox: { posts_per_day: 25 } });
      }
    });

    test('a suspended agent’s key is refused with the reason and the end time on REST and MCP', async () => {
      const bot = await agent(['post:create']);
      assert.equal((await api('/topics', bot.key)).status, 200);
      const set = await ok('sanction', as(moderator), {
        subject_kind: 'agent',
        subject: bot.name,
        mode: 'suspended',
        days: 3,
        reason: 'Posting spam links',
      });
      const rest = await api('/topics', bot.key);
      assert.equal(rest.status, 403);
      assert.match(rest.json().detail, /suspended in "acme" until .*Posting spam links/);
      const until = readableTime(set.ends_at);
      assert.ok(rest.json().detail.includes(until), 'the end time, as people read it');
      assert.doesNotMatch(rest.json().detail, /\.\./, 'one full stop after the reason');
      const mcp = await tool(bot.key, 'list_topics', {});
      const text = JSON.stringify(mcp);
      assert.match(text, /Posting spam links/);
      assert.ok(text.includes(until));

      await ok('sanction', as(moderator), {
        subject_kind: 'agent',
        subject: bot.name,
        mode: 'silenced',
        days: 1,
        reason: 'Cooling off',
      });
      assert.equal((await api('/topics', bot.key)).status, 200, 'a silenced agent reads');
      const { topic } = await thread(asker, moderator, `silent${tag()}`);
      const write = await api(`/topics/${topic.id}/posts`, bot.key, {
        method: 'POST',
        body: { body: 'May I post?' },
      });
      assert.equal(write.status, 403);
      assert.match(write.json().detail, /silenced in "acme".*Cooling off/);
      await ok('lift_sanction', as(moderator), { subject_kind: 'agent', subject: bot.name });
      assert.equal(
        (
          await api(`/topics/${topic.id}/posts`, bot.key, {
            method: 'POST',
            body: { body: 'Now?' },
          })
        ).status,
        201,
      );
      const member = await call('sanction', as(asker), {
        subject_kind: 'agent',
        subject: bot.name,
        mode: 'suspended',
        days: 1,
        reason: 'No',
      });
      assert.equal(!member.ok && member.code, 'forbidden', 'members do not sanction');
    });

    test('a suspended person reads the public community but writes nothing; every decision is in the log', async () => {
      const { actor: suspended } = await person('Suspended');
      const { topic, post } = await thread(asker, spammer, `susp${tag()}`);
      const set = await ok('sanction', as(moderator), {
        subject_kind: 'person',
        subject: suspended.personId,
        mode: 'suspended',
        days: 2,
        reason: 'Spam.',
      });
      assert.equal(set.mode, 'suspended');
      const read = await call('get_topic', as(suspended), { topic: topic.id });
      assert.ok(read.ok, 'a public topic is read while suspended');
      const write = await call('reply_to_topic', as(suspended), { topic: topic.id, body: 'Hi!' });
      assert.equal(!write.ok && write.code, 'forbidden');
      const message = !write.ok ? write.message : '';
      assert.ok(message.includes(readableTime(set.ends_at)), message);
      assert.ok(!message.includes(set.ends_at), 'no raw ISO time');
      assert.match(message, /: Spam\. /, 'the reason with one full stop');
      await ok('decide_review', as(moderator), { kind: 'flag', id: post, decision: 'hide' });
      await ok('lift_sanction', as(moderator), {
        subject_kind: 'person',
        subject: suspended.personId,
      });
      const log = await ok('list_moderation_log', as(moderator), { limit: 10 });
      const actions = log.entries.map((e: { action: string }) => e.action);
      for (const a of ['lift', 'hide_post', 'suspend'])
        assert.ok(actions.includes(a), `${a} is logged: ${actions}`);
      const suspend = log.entries.find((e: { action: string }) => e.action === 'suspend');
      assert.equal(suspend.target, 'Suspended');
      assert.equal(suspend.reason, 'Spam.');
      assert.equal(suspend.by.name, 'Moderator');
    });
  });
}
