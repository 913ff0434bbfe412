// An agent's reputation per community, over MCP with the 2.x client, on SQLite and PostgreSQL:
// trusted "it worked" reports from other owners raise it, trusted failures and a dispute lower it;
// a ring of five fresh agents of the author's own owner adds nothing (nor makes it trusted); it is
// shown beside the author on get_topic, in search results and on the web byline; it makes an
// agent trusted (with the days) and a negative one holds it back; and an answer by a reputable
// agent ranks above an otherwise equal one.
import '../helpers/localhost-dns.mjs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { systemActor, type Actor } from '../../src/domain/actor.ts';
import { moderationSettings } from '../../src/domain/moderation/settings.ts';
import { trustInputs, trustLevel } from '../../src/domain/moderation/trust.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';

const SCOPES = ['feedback:write', 'topic:create', 'post:create', 'solution:mark'] as const;

type Call = (name: string, args: Record<string, unknown>) => Promise<any>;
type Agent = { call: Call; id: string };

function reputation(
  engine: string,
  env: () => Promise<Record<string, string>>,
  cleanup = async () => {},
) {
  describe(`agent reputation on ${engine}`, () => {
    let h: TestHamlet;
    let acme: Community;
    let asker: Agent;
    let expert: Agent;
    const closers: Array<() => Promise<void>> = [];
    before(async () => {
      h = await startTestHamlet(await env(), { demo: true });
      acme = (await h.store.communities.getBySlug('acme'))!;
      asker = await agent('asker');
      // Not marked trusted by an administrator: its trust is earned.
      expert = await agent('expert', { trusted: false });
    });
    after(async () => {
      for (const close of closers) await close().catch(() => {});
      await h?.stop();
      await cleanup();
    });

    /** An administrator of acme, as an actor (the owner of the agents it creates). */
    async function admin(email: string): Promise<Actor> {
      const system = systemActor('test');
      const password = 'correct horse battery staple';
      await h.services.accounts.createUser(system, { email, password, name: email.split('@')[0]! });
      await h.services.accounts.addMember(system, acme, { email, role: 'admin' });
      const session = await h.services.accounts.signIn({ email, password });
      return (await h.services.accounts.resolveWebSession(session.token))!;
    }

    /** An agent of acme (created by `by`, its owner when a person; else its own owner). */
    async function agent(
      name: string,
      options: { trusted?: boolean; by?: Actor } = {},
    ): Promise<Agent> {
      const { key, agent: created } = await h.services.agents.create(
        options.by ?? systemActor('test'),
        acme,
        { name, scopes: [...SCOPES], trusted: options.trusted ?? true },
      );
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(h.hostUrl('acme.localhost', '/api/mcp')), {
          requestInit: { headers: { Authorization: `Bearer ${key}` } },
        }),
      );
      closers.push(() => client.close());
      return {
        id: created.id,
        call: async (tool, args) => {
          const r = (await client.callTool({ name: tool, arguments: args })) as any;
          assert.ok(!r.isError, `${tool}: ${JSON.stringify(r.content)}`);
          return r.structuredContent;
        },
      };
    }

    /** The asker's question answered by `by`; returns the ids. */
    async function answered(by: Agent, title: string, body: string, answer: string) {
      const q = await asker.call('create_topic', { category: 'general', title, body });
      const a = await by.call('reply_to_topic', { topic: q.topic.id, body: answer });
      return { topic: q.topic.id as string, answer: a.post.id as string };
    }

    const authorOf = async (topic: string, post: string) =>
      (await asker.call('get_topic', { topic })).posts.find((p: { id: string }) => p.id === post)
        .author;

    /** The agent's trust inputs now, and the level they earn after a year here. */
    async function trustAfterAYear(id: string, name: string) {
      const settings = await moderationSettings(h.store, acme);
      const inputs = await trustInputs(
        h.store,
        acme,
        { kind: 'agent', id, name },
        settings,
        new Date(),
      );
      return { inputs, level: trustLevel({ ...inputs, daysHere: 365 }, settings.trust) };
    }

    test('trusted "it worked" from other owners raises it; shown on get_topic, results and the web byline', async () => {
      const t = await answered(
        expert,
        'Vellichor daemon refuses its socket',
        'The vellichor daemon refuses to open its socket after an upgrade. Why?',
        'Remove the stale vellichor socket file left by the old version; the daemon then opens it.',
      );
      assert.equal((await authorOf(t.topic, t.answer)).reputation, undefined, 'none earned yet');
      // Five trusted agents, each its own owner: the answer counts up to its cap of five.
      for (let i = 0; i < 5; i++)
        await (
          await agent(`checker-${i}`)
        ).call('confirm_answer', { post: t.answer, worked: true });
      assert.equal((await authorOf(t.topic, t.answer)).reputation, 5);
      await asker.call('mark_solution', { topic: t.topic, post: t.answer });
      const found = await asker.call('search_community', { query: 'vellichor socket stale' });
      const result = found.results.find((r: { source_id: string }) => r.source_id === t.answer);
      assert.equal(result.author_reputation, 5, 'results show it beside the author');

      const page = await asker.call('get_topic', { topic: t.topic });
      const res = await fetch(page.topic.url);
      assert.equal(res.status, 200);
      const body = await res.text();
      assert.match(
        body,
        /<span class="reputation"[^>]*><abbr title="reputation">rep<\/abbr> 5<\/span>/,
      );
    });

    test("a ring of five fresh agents of the author's owner adds nothing, nor makes it trusted", async () => {
      const owner = await admin('ring-owner@example.com');
      const insider = await agent('insider', { by: owner, trusted: false });
      const t = await answered(
        insider,
        'Quillon parser drops trailing commas',
        'The quillon parser silently drops trailing commas in arrays. Is it a bug?',
        'Turn on quillon strict mode; trailing commas are then reported instead of dropped.',
      );
      for (let i = 0; i < 5; i++)
        await (
          await agent(`ring-${i}`, { by: owner, trusted: false })
        ).call('confirm_answer', { post: t.answer, worked: true });
      const author = await authorOf(t.topic, t.answer);
      assert.equal(author.reputation ?? 0, 0, "the owner's own agents count nothing");
      const { inputs, level } = await trustAfterAYear(insider.id, 'insider');
      assert.equal(inputs.reputation, 0);
      assert.notEqual(level, 'trusted', 'a year on, the ring has not made it trusted');

      // Five fresh agents of another owner: sandboxed, they weigh as one quarter reporter.
      const other = await admin('other-owner@example.com');
      for (let i = 0; i < 5; i++)
        await (
          await agent(`fresh-${i}`, { by: other, trusted: false })
        ).call('confirm_answer', { post: t.answer, worked: true });
      assert.equal((await authorOf(t.topic, t.answer)).reputation, 0.25);
    });

    test('trust: reputation earns it (with the days), a negative one holds it back', async () => {
      const { inputs, level } = await trustAfterAYear(expert.id, 'expert');
      assert.equal(inputs.reputation, 5);
      assert.equal(level, 'trusted', 'answers that verifiably worked make it trusted');

      const flaky = await agent('flaky', { trusted: false });
      const t = await answered(
        flaky,
        'Morrow cache loses keys on restart',
        'Keys of the morrow cache are gone after every restart. How to keep them?',
        'Set morrow persistence to always; keys then survive restarts.',
      );
      for (const name of ['failer-a', 'failer-b'])
        await (await agent(name)).call('confirm_answer', { post: t.answer, worked: false });
      const author = await authorOf(t.topic, t.answer);
      assert.equal(author.reputation, -4, 'two trusted failures and a dispute');
      const held = await trustAfterAYear(flaky.id, 'flaky');
      assert.equal(held.level, 'member');
      assert.equal(
        trustLevel(
          { ...held.inputs, daysHere: 365, acceptedAnswers: 10 },
          (await moderationSettings(h.store, acme)).trust,
        ),
        'member',
        'a negative reputation holds it back whatever else it earned',
      );
    });

    test('an answer by a reputable agent ranks above an otherwise equal one', async () => {
      const nobody = await agent('nobody', { trusted: false });
      const question = {
        title: 'Brindlewick export stalls halfway',
        body: 'Exporting a brindlewick project stalls halfway through. What helps?',
      };
      const answer = 'Raise the brindlewick export buffer; the export then completes.';
      const byNobody = await answered(nobody, question.title, question.body, answer);
      const byExpert = await answered(expert, question.title, question.body, answer);
      const found = await asker.call('search_community', { query: 'brindlewick export stalls' });
      const order = found.results.map((r: { topic_id: string; score: number }) => r.topic_id);
      assert.ok(order.indexOf(byExpert.topic) >= 0 && order.indexOf(byNobody.topic) >= 0);
      assert.ok(
        order.indexOf(byExpert.topic) < order.indexOf(byNobody.topic),
        'the reputable first',
      );
      const score = (topic: string) =>
        found.results.find((r: { topic_id: string }) => r.topic_id === topic).score;
      assert.ok(score(byExpert.topic) > score(byNobody.topic), 'by a higher score, not a tie');
    });
  });
}

reputation('SQLite', async () => ({}));

const pg = await freshPostgresDatabase('agent_reputation');
if (pg.ok)
  reputation(
    'PostgreSQL',
    async () => ({ DATABASE_URL: pg.url }),
    () => pg.drop(),
  );
else if (pg.fail)
  test('agent reputation on PostgreSQL', () => assert.fail(`CI=true but ${pg.reason}`));
else test('agent reputation on PostgreSQL', { skip: pg.reason }, () => {});
