// Notifications through the operation pipeline (what REST, MCP and the web run): each kind reaches
// the people it concerns and never the one who acted, a muted topic, or someone who may not read
// the community; @mentions render as profile links and notify; read marks and the unread count; a
// retried write notifies once; a private community's notifications stay with its members; the
// composer's @handle suggestions name the community's members and agents only.
// ./sqlite.test.ts and ./postgres.test.ts run it on each engine (one engine per process).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PersonActor } from '../../src/domain/actor.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { operationNamed } from '../../src/operations/catalogue.ts';
import { Pipeline, type Caller } from '../../src/operations/pipeline.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

let h: TestHamlet;
let acme: Community;
let skunk: Community;
let pipeline: Pipeline;
let cleanup: (() => Promise<void>) | undefined;

export type Setup = () => Promise<{ env: Record<string, string>; cleanup?: () => Promise<void> }>;
const system = systemActor('test');
const PASSWORD = 'a long enough password';

async function person(email: string, name: string, memberOf: Community[] = []) {
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  for (const c of memberOf)
    await h.services.accounts.addMember(system, c, { email, role: 'member' });
  return signedIn(email);
}
async function signedIn(email: string): Promise<PersonActor> {
  const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
  return (await h.services.accounts.resolveWebSession(token))!;
}

const as = (community: Community, who: PersonActor): Caller => ({
  community,
  ip: '127.0.0.1',
  person: who,
});
async function ok(name: string, caller: Caller, args: unknown = {}): Promise<any> {
  const outcome = await pipeline.invoke(operationNamed('community', name)!, caller, args);
  assert.ok(outcome.ok, `${name}: ${JSON.stringify(outcome)}`);
  return outcome.value;
}
async function refused(name: string, caller: Caller, args: unknown = {}) {
  const outcome = await pipeline.invoke(operationNamed('community', name)!, caller, args);
  assert.equal(outcome.ok, false, `${name} should be refused`);
  return outcome as Extract<typeof outcome, { ok: false }>;
}
const inbox = async (c: Community, who: PersonActor) =>
  (await ok('list_notifications', as(c, who))) as {
    notifications: {
      kind: string;
      text: string;
      url: string | null;
      reason: string | null;
      id: string;
    }[];
    unread_count: number;
  };
let n = 0;
async function ask(c: Community, who: PersonActor, body = 'What does this setting do exactly?') {
  const category = c.id === acme.id ? 'support' : 'projects';
  const out = await ok('create_topic', as(c, who), {
    category,
    title: `Question number ${++n} about settings`,
    body,
  });
  return out.topic as { id: string; slug: string; title: string };
}

export function defineNotificationsContract(engine: string, setup: Setup): void {
  describe(`notifications contract (${engine})`, () => {
    before(async () => {
      const s = await setup();
      cleanup = s.cleanup;
      h = await startTestHamlet(
        { HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '10000', ...s.env },
        { demo: true },
      );
      acme = (await h.store.communities.getBySlug('acme'))!;
      skunk = (await h.store.communities.getBySlug('skunkworks'))!;
      pipeline = new Pipeline(
        h.services,
        {
          mcp: (s) => `mcp:${s}`,
          web: (s) => `web:${s}`,
          inPathForm: (v) => v,
          listsPathForm: false,
        },
        h.logger,
      );
    });
    after(async () => {
      await h?.stop();
      await cleanup?.();
    });

    test('a reply notifies the asker (not the replier); read marks and the unread count', async () => {
      const asker = await person('asker@example.org', 'Asker', [acme]);
      const helper = await person('helper@example.org', 'Helper', [acme]);
      const topic = await ask(acme, asker);
      await ok('reply_to_topic', as(acme, helper), {
        topic: topic.slug,
        body: 'Try turning it off.',
      });
      const mine = await inbox(acme, asker);
      assert.equal(mine.unread_count, 1);
      assert.equal(mine.notifications[0]!.kind, 'replied');
      assert.match(mine.notifications[0]!.text, /Helper replied to/);
      assert.match(mine.notifications[0]!.url!, new RegExp(`/t/${topic.slug}#post-`));
      assert.equal((await inbox(acme, helper)).notifications.length, 0, 'not the one who acted');

      // The asker replying in their own topic notifies nobody; the helper (tracking) is not watching.
      await ok('reply_to_topic', as(acme, asker), { topic: topic.slug, body: 'Thanks, trying.' });
      assert.equal((await inbox(acme, helper)).notifications.length, 0);

      const marked = await ok('mark_notifications_read', as(acme, asker), {
        ids: [mine.notifications[0]!.id],
      });
      assert.equal(marked.marked, 1);
      assert.equal((await inbox(acme, asker)).unread_count, 0);
      await ok('reply_to_topic', as(acme, helper), { topic: topic.slug, body: 'Or restart it.' });
      await ok('reply_to_topic', as(acme, helper), { topic: topic.slug, body: 'Or ask support.' });
      assert.equal((await inbox(acme, asker)).unread_count, 2);
      assert.equal((await ok('mark_notifications_read', as(acme, asker), { all: true })).marked, 2);
      assert.equal((await inbox(acme, asker)).unread_count, 0);
    });

    test('an accepted answer, a muted topic, a watched category, a retried write', async () => {
      const asker = await person('asker2@example.org', 'Asker Two', [acme]);
      const helper = await person('helper2@example.org', 'Helper Two', [acme]);
      const watcher = await person('watcher@example.org', 'Watcher', [acme]);
      await ok('set_watch_level', as(acme, watcher), { category: 'support', level: 'watch' });
      const topic = await ask(acme, asker);
      assert.equal((await inbox(acme, watcher)).notifications[0]!.kind, 'watched_topic');

      const reply = await ok('reply_to_topic', as(acme, helper), {
        topic: topic.slug,
        body: 'This is the answer.',
        idempotency_key: 'retry-key-0001',
      });
      await ok('reply_to_topic', as(acme, helper), {
        topic: topic.slug,
        body: 'This is the answer.',
        idempotency_key: 'retry-key-0001',
      });
      assert.equal(
        (await inbox(acme, asker)).notifications.filter((x) => x.kind === 'replied').length,
        1,
        'a retried write notifies once',
      );
      assert.equal((await inbox(acme, watcher)).notifications[0]!.kind, 'watched_post');

      await ok('mark_solution', as(acme, asker), { topic: topic.slug, post: reply.post.id });
      assert.equal((await inbox(acme, helper)).notifications[0]!.kind, 'solution_accepted');

      await ok('set_watch_level', as(acme, asker), { topic: topic.slug, level: 'mute' });
      const before = (await inbox(acme, asker)).notifications.length;
      await ok('reply_to_topic', as(acme, helper), { topic: topic.slug, body: 'One more idea.' });
      assert.equal((await inbox(acme, asker)).notifications.length, before, 'muted: nothing');
    });

    test('@mentions link to the profile and notify; people who cannot read are named to the writer', async () => {
      const writer = await person('writer@example.org', 'Writer', [acme, skunk]);
      const dana = await person('dana@example.org', 'Dana Q', [acme]);
      const topic = await ask(acme, writer);
      const out = await ok('reply_to_topic', as(acme, writer), {
        topic: topic.slug,
        body: 'Pinging @dana-q about this, and `@dana-q` in code does nothing.',
      });
      assert.deepEqual(out.mentions, { notified: ['dana-q'], agents: [], cannot_read: [] });
      const page = await ok(
        'get_topic',
        { ...as(acme, writer), showsHtml: true },
        { topic: topic.slug },
      );
      const html = page.posts.at(-1).html as string;
      assert.match(
        html,
        new RegExp(`<a href="[^"]*/u/${dana.personId}" class="mention"[^>]*>@dana-q</a>`),
      );
      assert.match(html, /<code>@dana-q<\/code>/);
      assert.equal((await inbox(acme, dana)).notifications[0]!.kind, 'mentioned');

      // Dana is no member of the private community: not notified there, and the writer is told.
      const secret = await ask(skunk, writer);
      const inside = await ok('reply_to_topic', as(skunk, writer), {
        topic: secret.slug,
        body: 'What do you think, @dana-q and @nobody-by-this-name?',
      });
      // Who has an account elsewhere on the instance is not told: a non-member's handle is named
      // exactly as a handle nobody has, and neither is linked.
      assert.deepEqual(inside.mentions.notified, []);
      assert.deepEqual(inside.mentions.cannot_read.sort(), ['dana-q', 'nobody-by-this-name']);
      assert.match(
        inside.message,
        /Not notified \(no reader of this topic has that handle\): (@dana-q|@nobody-by-this-name), (@dana-q|@nobody-by-this-name)\./,
      );
      const insidePage = await ok(
        'get_topic',
        { ...as(skunk, writer), showsHtml: true },
        { topic: secret.slug },
      );
      assert.doesNotMatch(insidePage.posts.at(-1).html as string, /class="mention"/);
      const rows = await h.store
        .community(skunk.id)
        .notifications.list(dana.personId, { limit: 10 });
      assert.equal(rows.items.length, 0);
      await refused('list_notifications', as(skunk, dana));
    });

    test('an agent mentioned by name: a mention.created webhook event names it', async () => {
      const writer = await person('agent-fan@example.org', 'Agent Fan', [acme]);
      const scope = h.store.community(acme.id);
      const agent = (await scope.agents.getByName('acme-helper'))!;
      const endpoint = await scope.webhooks.createEndpoint({
        url: 'https://hooks.example.org/mentions',
        description: '',
        events: ['mention.created'],
        secret: 'x'.repeat(32),
      });
      const topic = await ask(acme, writer);
      const out = await ok('reply_to_topic', as(acme, writer), {
        topic: topic.slug,
        body: 'Could @ACME-helper look at this?',
      });
      assert.deepEqual(out.mentions, { notified: [], agents: ['acme-helper'], cannot_read: [] });
      const deliveries = await scope.webhooks.listDeliveries(endpoint.id, { limit: 5 });
      assert.equal(deliveries.items.length, 1);
      const delivery = await scope.webhooks.getDelivery(deliveries.items[0]!.id);
      assert.equal(delivery!.event.type, 'mention.created');
      const payload = delivery!.event.payload as { mentioned: unknown; post: { id: string } };
      assert.deepEqual(payload.mentioned, [{ kind: 'agent', id: agent.id, handle: 'acme-helper' }]);
      assert.equal(payload.post.id, out.post.id);
    });

    test('a queued write decided: the submitter hears it, with the reason when rejected', async () => {
      const admin = await person('admin-n@example.org', 'Admin N');
      await h.services.accounts.addMember(system, acme, {
        email: 'admin-n@example.org',
        role: 'owner',
      });
      const owner = await signedIn('admin-n@example.org');
      const member = await person('queued@example.org', 'Queued', [acme]);
      assert.ok(admin);
      const topic = await ask(acme, owner);
      await ok('set_approval_policy', as(acme, owner), { kind: 'post.create', mode: 'approval' });
      try {
        const first = await ok('reply_to_topic', as(acme, member), {
          topic: topic.slug,
          body: 'A reply that waits.',
        });
        assert.equal(first.status, 'pending_approval');
        await ok('reject', as(acme, owner), {
          approval_id: first.approval_id,
          reason: 'Please add the version you run.',
        });
        const [rejected] = (await inbox(acme, member)).notifications;
        assert.equal(rejected!.kind, 'approval_rejected');
        assert.equal(rejected!.reason, 'Please add the version you run.');
        assert.match(rejected!.text, /Please add the version you run/);
        // A sentence naming the topic, never the write's kind ("rejected “your post create”").
        assert.equal(
          rejected!.text,
          `Admin N did not publish your reply to “${topic.title}”: Please add the version you run.`,
        );

        const second = await ok('reply_to_topic', as(acme, member), {
          topic: topic.slug,
          body: 'A reply that waits, version 2.',
        });
        await ok('approve', as(acme, owner), { approval_id: second.approval_id });
        assert.equal((await inbox(acme, member)).notifications[0]!.kind, 'approval_applied');
        // The approved reply notifies the asker as the submitter's reply (not as the moderator's).
        const asker = (await inbox(acme, owner)).notifications[0]!;
        assert.equal(asker.kind, 'replied');
        assert.match(asker.text, /^Queued replied/);
      } finally {
        await ok('set_approval_policy', as(acme, owner), { kind: 'post.create', mode: 'auto' });
      }
    });

    test('a member removed from a private community reads none of its notifications', async () => {
      const asker = await person('insider@example.org', 'Insider', [skunk]);
      const other = await person('other@example.org', 'Other', [skunk]);
      const topic = await ask(skunk, asker);
      await ok('reply_to_topic', as(skunk, other), { topic: topic.slug, body: 'Inside reply.' });
      assert.equal((await inbox(skunk, asker)).notifications.length, 1);
      await h.services.accounts.removeMember(system, skunk, { email: 'insider@example.org' });
      const removed = await signedIn('insider@example.org');
      await refused('list_notifications', as(skunk, removed));
      await ok('reply_to_topic', as(skunk, other), { topic: topic.slug, body: 'Another reply.' });
      const rows = await h.store
        .community(skunk.id)
        .notifications.list(asker.personId, { limit: 10 });
      assert.equal(rows.items.length, 1, 'no new notification for a removed member');
      // And nothing of the private community shows in their notifications of the public one.
      assert.equal((await inbox(acme, removed)).notifications.length, 0);
    });

    test('suggest_handles: members by handle or name prefix, then agents; nobody outside the community', async () => {
      const dana = await person('dana.s@example.org', 'Dana Suggest', [acme]);
      await ok('set_my_handle', as(acme, dana), { handle: 'dana_s' });
      await person('danaoutside@example.org', 'Dana Outsider');
      await person('dan.inside@example.org', 'Danforth Skunk', [skunk]);
      await h.services.agents.create(system, acme, { name: 'danabot', scopes: [] } as never);
      const got = (await ok('suggest_handles', as(acme, dana), { prefix: 'DAN' })).suggestions as {
        handle: string;
        name: string;
        kind: string;
      }[];
      const handles = got.map((g) => g.handle);
      const names = got.map((g) => g.name);
      assert.ok(handles.includes('dana_s'), JSON.stringify(got));
      assert.ok(handles.includes('danabot'), 'the community’s agent by name');
      assert.ok(handles.indexOf('dana_s') < handles.indexOf('danabot'), 'people first');
      assert.ok(!names.includes('Dana Outsider'), 'not a member: not suggested');
      assert.ok(!names.includes('Danforth Skunk'), 'another community’s member');
      // By the start of the name, and LIKE's wildcards match only themselves.
      const byName = (await ok('suggest_handles', as(acme, dana), { prefix: 'dana s' }))
        .suggestions as { handle: string }[];
      assert.deepEqual(
        byName.map((g) => g.handle),
        ['dana_s'],
      );
      const wild = (await ok('suggest_handles', as(acme, dana), { prefix: '%' })).suggestions;
      assert.deepEqual(wild, []);
      // A private community's members are suggested to its readers only.
      const outsider = await signedIn('danaoutside@example.org');
      await refused('suggest_handles', as(skunk, outsider), { prefix: 'dan' });
    });
  });
}
