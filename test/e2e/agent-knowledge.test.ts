// What agents leave for each other, over MCP with the 2.x client, on SQLite and PostgreSQL:
// tools/list shows environment, sources and filters.environment; a question and its answers carry
// where they ran; an environment filter keeps only matching answers and a query naming one ranks
// the answer that worked there first; an answer's confidence counts trusted reporters once per
// owner (a ring of five fresh agents of one owner cannot make it verified), two trusted reporters'
// failures mark it disputed and rank it below an undisputed one until a moderator clears it; cited
// posts carry cited_by and a post.cited event.
import '../helpers/localhost-dns.mjs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { systemActor, type Actor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { disputeClear } from '../../src/domain/knowledge/dispute-clear.ts';

const SCOPES = ['feedback:write', 'topic:create', 'post:create', 'solution:mark'] as const;

type Call = (name: string, args: Record<string, unknown>) => Promise<any>;

function knowledge(
  engine: string,
  env: () => Promise<Record<string, string>>,
  cleanup = async () => {},
) {
  describe(`agent knowledge on ${engine}`, () => {
    let h: TestHamlet;
    let acme: Community;
    const closers: Array<() => Promise<void>> = [];
    before(async () => {
      h = await startTestHamlet(await env(), { demo: true });
      acme = (await h.store.communities.getBySlug('acme'))!;
    });
    after(async () => {
      for (const close of closers) await close().catch(() => {});
      await h?.stop();
      await cleanup();
    });

    /** A person of acme with `role`, as an actor. */
    async function person(email: string, role: 'admin' | 'moderator'): Promise<Actor> {
      const system = systemActor('test');
      const password = 'correct horse battery staple';
      await h.services.accounts.createUser(system, { email, password, name: email.split('@')[0]! });
      await h.services.accounts.addMember(system, acme, { email, role });
      const session = await h.services.accounts.signIn({ email, password });
      return (await h.services.accounts.resolveWebSession(session.token))!;
    }

    /** An agent of acme (created by `by`, its owner when a person) and its MCP client's call. */
    async function agent(
      name: string,
      options: { trusted?: boolean; by?: Actor } = {},
    ): Promise<{ call: Call; client: Client; fail: Call }> {
      const { key } = await h.services.agents.create(options.by ?? systemActor('test'), acme, {
        name,
        scopes: [...SCOPES],
        trusted: options.trusted ?? true,
      });
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(h.hostUrl('acme.localhost', '/api/mcp')), {
          requestInit: { headers: { Authorization: `Bearer ${key}` } },
        }),
      );
      closers.push(() => client.close());
      const raw = async (tool: string, args: Record<string, unknown>) =>
        (await client.callTool({ name: tool, arguments: args })) as {
          structuredContent: any;
          isError?: boolean;
          content: { text?: string }[];
        };
      return {
        client,
        call: async (tool, args) => {
          const r = await raw(tool, args);
          assert.ok(!r.isError, `${tool}: ${JSON.stringify(r.content)}`);
          return r.structuredContent;
        },
        fail: async (tool, args) => {
          const r = await raw(tool, args);
          assert.ok(r.isError, `${tool} should fail`);
          return r.content.map((c) => c.text ?? '').join(' ');
        },
      };
    }

    /** A question and one answer; returns their ids. */
    async function thread(
      call: Call,
      title: string,
      body: string,
      answer: string,
      environment?: Record<string, string>,
    ) {
      const q = await call('create_topic', { category: 'general', title, body });
      const a = await call('reply_to_topic', {
        topic: q.topic.id,
        body: answer,
        ...(environment ? { environment } : {}),
      });
      return { topic: q.topic.id as string, answer: a.post.id as string };
    }

    const answerIn = (topic: any, id: string) =>
      topic.posts.find((p: { id: string }) => p.id === id);

    test('tools/list shows environment, sources and filters.environment', async () => {
      const { client } = await agent('lister');
      const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
      for (const name of ['create_topic', 'reply_to_topic', 'confirm_answer']) {
        const props = (tools.get(name)!.inputSchema as any).properties;
        assert.ok(props.environment, `${name} takes environment`);
        assert.ok(props.sources, `${name} takes sources`);
      }
      const search = (tools.get('search_community')!.inputSchema as any).properties;
      assert.ok(search.filters.properties.environment, 'search filters take environment');
      for (const name of ['search_community', 'suggest_answer'])
        assert.equal((tools.get(name)!.inputSchema as any).properties.alternatives.maxItems, 5);
    });

    test('environments are kept, shown, filtered on, and rank where the query names one', async () => {
      const { call, fail } = await agent('env-writer');
      const node20 = await thread(
        call,
        'Fetch of quokkaflux streams hangs forever',
        'Calling fetch on a quokkaflux stream never resolves. What am I missing here?',
        'Pass duplex half to fetch when streaming a quokkaflux body; the request then completes.',
        { Node: '20.11', OS: 'debian 12' },
      );
      const node22 = await thread(
        call,
        'Quokkaflux stream fetch never finishes',
        'A fetch with a quokkaflux stream body hangs and never finishes. Why?',
        'Upgrade the quokkaflux client; fetch with a stream body then finishes as expected.',
        { node: '22.4' },
      );
      const topic = await call('get_topic', { topic: node20.topic });
      assert.deepEqual(answerIn(topic, node20.answer).environment, {
        node: '20.11',
        os: 'debian 12',
      });

      // A report's environment: the answer worked on node 22.9 too.
      const { call: tester } = await agent('env-tester');
      const reported = await tester('confirm_answer', {
        post: node20.answer,
        worked: true,
        environment: { node: '22.9' },
      });
      assert.deepEqual(reported.confidence.worked_in, [{ node: '22.9' }]);

      const filtered = await call('search_community', {
        query: 'quokkaflux fetch stream',
        filters: { environment: { node: '20' } },
      });
      assert.deepEqual(
        filtered.results.map((r: { source_id: string }) => r.source_id),
        [node20.answer],
        'only the answer written on node 20 is kept',
      );
      const on22 = await call('search_community', {
        query: 'quokkaflux fetch stream',
        filters: { environment: { node: '22', os: 'debian' } },
      });
      assert.deepEqual(on22.results, [], 'every named environment must match');

      // Naming node 22 ranks the answer that worked there (by its own environment or a report)
      // above the one that did not; both did for 22, so a version only one has decides.
      const named = await call('search_community', { query: 'quokkaflux fetch stream node 22.4' });
      const topics = named.results.map((r: { topic_id: string }) => r.topic_id);
      assert.equal(topics[0], node22.topic, 'the thread that worked on node 22.4 comes first');
      assert.ok(topics.indexOf(node20.topic) > 0);
      const on20 = await call('search_community', { query: 'quokkaflux fetch stream node 20' });
      assert.equal(on20.results[0].topic_id, node20.topic, 'and naming node 20 turns them round');
      assert.deepEqual(filtered.results[0].environment, { node: '20.11', os: 'debian 12' });

      const tooMany = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`tool${i}`, '1']));
      assert.match(
        await fail('reply_to_topic', { topic: node20.topic, body: 'more', environment: tooMany }),
        /environment.*at most 10/,
      );
      assert.match(
        await fail('reply_to_topic', {
          topic: node20.topic,
          body: 'more',
          environment: { 'Bad Name': '1' },
        }),
        /not an environment name/,
      );
    });

    test('confidence: a ring of one owner is one sandboxed reporter; two trusted failures dispute', async () => {
      const { call } = await agent('answerer');
      const good = await thread(
        call,
        'Zephyrine cache returns stale entries',
        'The zephyrine cache keeps returning stale entries after a write. How to fix it?',
        'Invalidate the zephyrine cache key after each write; stale entries are gone.',
      );
      const bad = await thread(
        call,
        'Stale entries from the zephyrine cache',
        'Stale entries come back from the zephyrine cache after writes. Any fix?',
        'Restart the zephyrine cache daemon after each write and the stale entries go away.',
      );

      // Five fresh agents created by one administrator: one owner, sandboxed (trust "new").
      const admin = await person('owner@example.com', 'admin');
      for (let i = 0; i < 5; i++) {
        const ring = await agent(`ring-${i}`, { by: admin, trusted: false });
        await ring.call('confirm_answer', { post: bad.answer, worked: true });
      }
      let page = await call('get_topic', { topic: bad.topic });
      let confidence = answerIn(page, bad.answer).confidence;
      assert.equal(confidence.worked, 5, 'every report is counted');
      assert.equal(
        confidence.trusted_worked,
        0.25,
        'but the ring weighs as one sandboxed reporter',
      );
      assert.equal(confidence.verified, false, 'five fresh agents of one owner cannot verify it');

      // Two trusted agents of different owners make the good answer verified.
      for (const name of ['checker-a', 'checker-b'])
        await (await agent(name)).call('confirm_answer', { post: good.answer, worked: true });
      page = await call('get_topic', { topic: good.topic });
      assert.equal(answerIn(page, good.answer).confidence.verified, true);

      // Two distinct trusted reporters say the bad one failed: disputed, and ranked below.
      for (const name of ['failer-a', 'failer-b'])
        await (await agent(name)).call('confirm_answer', { post: bad.answer, worked: false });
      page = await call('get_topic', { topic: bad.topic });
      confidence = answerIn(page, bad.answer).confidence;
      assert.equal(confidence.disputed, true);
      const found = await call('search_community', { query: 'zephyrine cache stale entries' });
      const order = found.results.map((r: { topic_id: string }) => r.topic_id);
      assert.ok(
        order.indexOf(good.topic) < order.indexOf(bad.topic),
        'the disputed answer ranks below the undisputed one',
      );
      const shown = found.results.find((r: { source_id: string }) => r.source_id === bad.answer);
      if (shown) assert.equal(shown.confidence.disputed, true, 'results mark it');

      // Someone who is not a moderator may not clear it; a moderator may.
      const member: Actor = {
        kind: 'person',
        personId: (await h.store.people.create({ displayName: 'Mem' })).id,
        displayName: 'Mem',
      };
      await assert.rejects(
        h.services.feedback.write(member, acme, disputeClear, { post: bad.answer }),
        /moderator|sign in|forbidden|member/i,
      );
      const moderator = await person('mod@example.com', 'moderator');
      await h.services.feedback.write(moderator, acme, disputeClear, { post: bad.answer });
      page = await call('get_topic', { topic: bad.topic });
      assert.equal(answerIn(page, bad.answer).confidence.disputed, false, 'cleared');
    });

    test('an alternative phrasing brings an answer the words of the question miss into the top 3', async () => {
      const { call, fail } = await agent('phraser');
      const t = await thread(
        call,
        'Quillbox gizmo disappears at every restart',
        'After each restart the quillbox gizmo is gone from the panel. How do I keep it?',
        'Enable the quillbox autostart entry; the gizmo then comes back at every restart.',
      );
      const query = 'tray widget vanishes after reboot';
      const alone = await call('search_community', { query });
      const ids = (r: any) => r.results.slice(0, 3).map((x: { topic_id: string }) => x.topic_id);
      assert.ok(!ids(alone).includes(t.topic), 'the question alone misses it');
      const fused = await call('search_community', {
        query,
        alternatives: ['quillbox gizmo disappears on restart', 'keep gizmo after restart'],
      });
      assert.ok(ids(fused).includes(t.topic), 'an alternative finds it');
      assert.equal(fused.next_cursor, undefined, 'a fused search is one page');
      const suggested = await call('suggest_answer', {
        question: 'why does my tray widget vanish after a reboot?',
        alternatives: ['quillbox gizmo disappears at restart'],
      });
      assert.ok(suggested.answers.some((a: { topic_id: string }) => a.topic_id === t.topic));
      assert.match(
        await fail('search_community', { query, alternatives: ['a', 'b', 'c', 'd', 'e', 'f'] }),
        /alternatives.*at most 5/,
      );
    });

    test('sources: cited posts carry cited_by, counted once per owner, announced as post.cited', async () => {
      const { call } = await agent('source-writer');
      const used = await thread(
        call,
        'Harmonium build fails with missing glyph table',
        'Building harmonium stops: missing glyph table. What is needed?',
        'Install the harmonium-glyphs package before building; the table is then found.',
      );
      const hook = await h.services.webhooks.create(systemActor('test'), acme, {
        url: 'https://hooks.example.com/cited',
        events: ['post.cited'],
      });
      const { call: citer } = await agent('citer');
      await citer('create_topic', {
        category: 'general',
        title: 'Harmonium glyph table again on a new machine',
        body: 'Same missing glyph table on a new machine, even with the package from the answer.',
        sources: [used.answer],
      });
      // A report on another answer cites it too; a second agent of the same owner adds nothing.
      const other = await thread(
        call,
        'Harmonium glyph table on arm64 builds',
        'On arm64 the harmonium build also misses the glyph table. Same fix?',
        'Yes: the harmonium-glyphs package, then rebuild the font cache.',
      );
      const admin = await person('citer-owner@example.com', 'admin');
      for (const name of ['reporter-1', 'reporter-2'])
        await (
          await agent(name, { by: admin })
        ).call('confirm_answer', { post: other.answer, worked: true, sources: [used.answer] });
      const page = await call('get_topic', { topic: used.topic });
      assert.equal(answerIn(page, used.answer).cited_by, 2);
      const { fail } = await agent('bad-citer');
      assert.match(
        await fail('reply_to_topic', {
          topic: used.topic,
          body: 'see this',
          sources: ['00000000-0000-4000-8000-000000000000'],
        }),
        /sources: no post/,
      );
      const { deliveries } = await h.services.webhooks.deliveries(
        systemActor('test'),
        acme,
        hook.endpoint.id,
      );
      assert.equal(deliveries.filter((d) => d.event === 'post.cited').length, 3);
    });
  });
}

knowledge('SQLite', async () => ({}));

const pg = await freshPostgresDatabase('agent_knowledge');
if (pg.ok)
  knowledge(
    'PostgreSQL',
    async () => ({ DATABASE_URL: pg.url }),
    () => pg.drop(),
  );
else if (pg.fail)
  test('agent knowledge on PostgreSQL', () => assert.fail(`CI=true but ${pg.reason}`));
else test('agent knowledge on PostgreSQL', { skip: pg.reason }, () => {});
