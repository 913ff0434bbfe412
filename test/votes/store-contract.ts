// Votes and "this worked" reports on one engine: one vote per person, changeable and removable,
// downvotes only where the community allows them, agents refused, 20 parallel voters and 20
// parallel reporters counted exactly, the signals summed per topic. Run through the use cases
// (src/domain/writes/vote-set.ts, outcome-report.ts), run by the one runner, over a real store of
// each engine.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config/config.ts';
import type { Actor } from '../../src/domain/actor.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { ContentEvents } from '../../src/domain/events.ts';
import { AuditService } from '../../src/domain/identity/audit.ts';
import { WriteRunner } from '../../src/domain/writes/runner.ts';
import type { UseCase } from '../../src/domain/writes/use-case.ts';
import type { Community } from '../../src/store/types.ts';
import { outcomeReport } from '../../src/domain/writes/outcome-report.ts';
import { voteSet } from '../../src/domain/writes/vote-set.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { StoreFactory } from '../store/contract.ts';

export function defineVotesStoreContract(engine: string, factory: StoreFactory): void {
  describe(`votes and confirmations store contract (${engine})`, () => {
    let store: Store;
    const config = loadConfig({});
    before(async () => {
      store = await factory.open();
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    async function thread() {
      const community = await store.communities.create({
        slug: `v-${randomBytes(4).toString('hex')}`,
        name: 'Votes',
        visibility: 'public',
      });
      const scope = store.community(community.id);
      const category = await scope.categories.create({ slug: 'g', name: 'G', kind: 'discussion' });
      const asker = await store.people.create({ displayName: 'Asker' });
      const topic = await scope.topics.create({
        categoryId: category.id,
        slug: 't',
        title: 'How do I vote?',
        author: { kind: 'person', id: asker.id, name: 'Asker' },
      });
      await scope.posts.create({
        topicId: topic.id,
        author: { kind: 'person', id: asker.id, name: 'Asker' },
        body: 'The question',
      });
      const answer = await scope.posts.create({
        topicId: topic.id,
        author: { kind: 'system', id: null, name: 'Helper' },
        body: 'The answer',
      });
      return { community, scope, topic, answer, asker };
    }
    const person = async (name: string): Promise<Actor> => {
      const p = await store.people.create({ displayName: name });
      return { kind: 'person', personId: p.id, displayName: name };
    };
    /** One use case run by the runner over this engine's store. */
    const run = <I, L, R>(
      actor: Actor,
      community: Community,
      useCase: UseCase<I, L, R>,
      payload: unknown,
    ): Promise<R> =>
      new WriteRunner({
        store,
        config,
        events: new ContentEvents(),
        audit: new AuditService(store),
      }).run(useCase, actor, community, payload);

    test('one vote per person: changed, taken back, counted once', async () => {
      const t = await thread();
      const ada = await person('Ada');
      const vote = (value: number) => run(ada, t.community, voteSet, { post: t.answer.id, value });
      assert.equal((await vote(1)).signals.score, 1);
      assert.equal((await vote(1)).signals.score, 1, 'the same vote again counts once');
      await assert.rejects(
        vote(-1),
        (e: DomainError) => e.code === 'forbidden' && /downvotes/.test(e.message),
      );
      await t.scope.votes.setDownvotes(true);
      const down = await vote(-1);
      assert.deepEqual(
        [down.previous, down.signals.score, down.signals.ups, down.signals.downs],
        [1, -1, 0, 1],
      );
      const none = await vote(0);
      assert.deepEqual([none.signals.score, none.signals.ups, none.signals.downs], [0, 0, 0]);
      assert.equal(
        (await t.scope.votes.votesOf((ada as { personId: string }).personId, [t.answer.id])).size,
        0,
      );
    });

    test("the votes a person's posts received add up to what their trust counts", async () => {
      const t = await thread();
      const question = (await t.scope.posts.getFirst(t.topic.id))!;
      const asker = { kind: 'person', id: t.asker.id };
      assert.equal(await t.scope.votes.scoreReceived(asker), 0);
      for (const name of ['Bea', 'Cy'])
        await run(await person(name), t.community, voteSet, {
          post: question.id,
          value: 1,
        });
      assert.equal(await t.scope.votes.scoreReceived(asker), 2);
      const other = await store.people.create({ displayName: 'Other' });
      assert.equal(await t.scope.votes.scoreReceived({ kind: 'person', id: other.id }), 0);
    });

    test('agents cannot vote; nobody votes on their own post', async () => {
      const t = await thread();
      const agent = await t.scope.agents.create({ name: 'bot' });
      const bot: Actor = {
        kind: 'agent',
        agentId: agent.id,
        communityId: t.community.id,
        name: 'bot',
      };
      await assert.rejects(
        run(bot, t.community, voteSet, { post: t.answer.id, value: 1 }),
        (e: DomainError) => e.code === 'forbidden' && /confirm_answer/.test(e.message),
      );
      const asker: Actor = { kind: 'person', personId: t.asker.id, displayName: 'Asker' };
      const question = (await t.scope.posts.getFirst(t.topic.id))!;
      await assert.rejects(
        run(asker, t.community, voteSet, { post: question.id, value: 1 }),
        (e: DomainError) => e.code === 'forbidden',
      );
    });

    test('20 parallel voters and 20 parallel reporters are counted exactly', async () => {
      const t = await thread();
      const voters = await Promise.all(Array.from({ length: 20 }, (_, i) => person(`V${i}`)));
      await Promise.all(
        voters.map((v) => run(v, t.community, voteSet, { post: t.answer.id, value: 1 })),
      );
      const agents = await Promise.all(
        Array.from({ length: 20 }, (_, i) => t.scope.agents.create({ name: `a${i}` })),
      );
      await Promise.all(
        agents.map((a, i) =>
          run(
            { kind: 'agent', agentId: a.id, communityId: t.community.id, name: a.name },
            t.community,
            outcomeReport,
            { post: t.answer.id, worked: i % 4 !== 0 },
          ),
        ),
      );
      const s = (await t.scope.votes.signals([t.answer.id])).get(t.answer.id)!;
      assert.deepEqual(
        [s.score, s.ups, s.workedAgents, s.failed],
        [20, 20, 15, 5],
        'every vote and report counted once',
      );
      assert.ok(s.lastWorkedAt);
      const summed = (await t.scope.votes.topicSignals([t.topic.id])).get(t.topic.id)!;
      assert.deepEqual([summed.score, summed.workedAgents, summed.failed], [20, 15, 5]);
    });

    test('a report is changed, not added; the question takes none', async () => {
      const t = await thread();
      const ada = await person('Ada');
      const report = (worked: boolean, note?: string) =>
        run(ada, t.community, outcomeReport, {
          post: t.answer.id,
          worked,
          note,
        });
      assert.equal((await report(true)).signals.workedPeople, 1);
      const changed = await report(false, 'still fails on 2.x');
      assert.deepEqual(
        [changed.changed, changed.signals.workedPeople, changed.signals.failed],
        [true, 0, 1],
      );
      assert.equal(changed.signals.lastWorkedAt, null, 'no standing "it worked" report');
      assert.equal((await report(false, 'still fails on 2.x')).changed, false);
      const question = (await t.scope.posts.getFirst(t.topic.id))!;
      await assert.rejects(
        run(ada, t.community, outcomeReport, {
          post: question.id,
          worked: true,
        }),
        (e: DomainError) => e.code === 'invalid_argument',
      );
    });

    test('a "did not work" note notifies the topic\'s author, not the reporter', async () => {
      const t = await thread();
      const ada = await person('Ada');
      await run(ada, t.community, outcomeReport, {
        post: t.answer.id,
        worked: false,
        note: 'The flag was removed in 3.0',
      });
      const page = await t.scope.notifications.list(t.asker.id, { limit: 10 });
      assert.equal(page.items.length, 1);
      assert.equal(page.items[0]!.kind, 'answer_failed');
      assert.equal(page.items[0]!.reason, 'The flag was removed in 3.0');
      const own = await t.scope.notifications.list((ada as { personId: string }).personId, {
        limit: 10,
      });
      assert.equal(own.items.length, 0);
    });
  });
}
