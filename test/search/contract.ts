// Search behaviour both engines must show; sqlite.test.ts and postgres.test.ts run it on a real
// engine each. Every test makes its own communities, so they share one migrated database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import type { Store } from '../../src/store/repositories.ts';
import type { AuthorRef, Community } from '../../src/store/types.ts';
import { loadConfig } from '../../src/config/config.ts';
import { SearchService } from '../../src/search/service.ts';
import { createSearchIndex } from '../../src/search/engine.ts';
import type { OpenedDatabase } from '../../src/store/open.ts';
import { HashingEmbedder, reciprocalRankFusion, type Embedder } from '../../src/search/embedder.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { buildProfiles, countsOf, storeClaimed } from '../../src/search/profiles.ts';
import { inHeadOrder } from '../../src/search/rerank.ts';
import { childScript } from '../helpers/child-script.ts';

export type SearchFactory = {
  url: string;
  open: () => Promise<OpenedDatabase>;
  cleanup?: () => Promise<void>;
};

const ada: AuthorRef = { kind: 'person', id: null, name: 'Ada Lovelace' };
const bob: AuthorRef = { kind: 'person', id: null, name: 'Bob Builder' };
const bot: AuthorRef = { kind: 'agent', id: null, name: 'helper-bot' };
const config = loadConfig({ HAMLET_BASE_DOMAIN: 'hamlet.test', PORT: '8787' });
const rand = () => randomBytes(4).toString('hex');

export function defineSearchContract(engine: string, factory: SearchFactory): void {
  describe(`search contract (${engine})`, () => {
    let store: Store;
    let search: SearchService;
    let opened: OpenedDatabase;

    before(async () => {
      opened = await factory.open();
      store = opened.store;
      search = new SearchService(store, createSearchIndex(opened.db, opened.dialect), config);
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    async function community(visibility: 'public' | 'private' = 'public') {
      const c = await store.communities.create({ slug: `c-${rand()}`, name: 'C', visibility });
      const scope = store.community(c.id);
      const general = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const support = await scope.categories.create({
        slug: 'support',
        name: 'Support',
        kind: 'discussion',
      });
      const kb = await scope.categories.create({
        slug: 'docs',
        name: 'Docs',
        kind: 'knowledge_base',
      });
      async function topic(
        title: string,
        body: string,
        opts: {
          category?: string;
          author?: AuthorRef;
          tags?: string[];
          replies?: [AuthorRef, string][];
          createdAt?: string;
          solution?: number;
        } = {},
      ) {
        const categoryId =
          opts.category === 'support' ? support.id : opts.category === 'docs' ? kb.id : general.id;
        const t = await scope.topics.create({
          categoryId,
          slug: `t-${rand()}`,
          title,
          author: opts.author ?? ada,
          tags: opts.tags,
          createdAt: opts.createdAt,
        });
        const first = await scope.posts.create({
          topicId: t.id,
          author: opts.author ?? ada,
          body,
          createdAt: opts.createdAt,
        });
        const replies = [];
        for (const [author, text] of opts.replies ?? [])
          replies.push(
            await scope.posts.create({
              topicId: t.id,
              author,
              body: text,
              createdAt: opts.createdAt,
            }),
          );
        if (opts.solution !== undefined)
          await scope.topics.update(t.id, { solutionPostId: replies[opts.solution]!.id });
        return { topic: t, first, replies };
      }
      return { community: c, scope, topic };
    }

    async function rejects(p: Promise<unknown>, field: RegExp) {
      await assert.rejects(
        p,
        (err: unknown) =>
          err instanceof DomainError && err.code === 'invalid_argument' && field.test(err.message),
      );
    }

    test('author "@handle" finds the posts of the person with that handle; an unknown handle finds nothing', async () => {
      const { community: c, topic } = await community();
      const handle = `h${rand()}`;
      const person = await store.people.create({ displayName: 'Rhea Quill', handle });
      const rhea: AuthorRef = { kind: 'person', id: person.id, name: person.displayName };
      const mine = await topic('Lighthouse lenses', 'Which lighthouse lens is brightest?', {
        author: rhea,
      });
      await topic('Lighthouse keepers', 'Who kept the lighthouse lamps?', { author: bob });
      const found = await search.search([c], 'lighthouse', { author: `@${handle}` });
      assert.deepEqual(
        found.results.map((r) => r.topic_id),
        [mine.topic.id],
      );
      const upper = await search.search([c], 'lighthouse', { author: `@${handle.toUpperCase()}` });
      assert.equal(upper.total, 1, 'handles are matched in any case');
      const unknown = await search.search([c], 'lighthouse', { author: `@nobody${rand()}` });
      assert.equal(unknown.total, 0);
    });

    test('sort "newest": topics by their newest matching post, in exact pages, each showing its matching answer; a cursor of the other order is refused', async () => {
      const { community: c, topic } = await community();
      const older = await topic('Quokka quokka quokka habitats', 'Where do quokka colonies live?', {
        createdAt: '2024-01-01T00:00:00.000Z',
      });
      const solved = await topic('A question on feeding', 'What does a quokka eat?', {
        createdAt: '2025-06-01T00:00:00.000Z',
        replies: [[bob, 'Leaves: a quokka eats leaves and grasses.']],
        solution: 0,
      });
      const oldest = await topic('Marsupial photographs', 'A quokka smiled at the camera.', {
        createdAt: '2023-03-01T00:00:00.000Z',
      });
      const newest = await topic('Island trip notes', 'We met one quokka near the ferry.', {
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      const byRelevance = await search.search([c], 'quokka', { limit: 10 });
      assert.equal(byRelevance.results[0]?.topic_id, older.topic.id, 'the title match ranks first');
      const first = await search.search([c], 'quokka', { sort: 'newest', limit: 2 });
      assert.equal(first.total, 4);
      assert.deepEqual(
        first.results.map((r) => r.topic_id),
        [newest.topic.id, solved.topic.id],
      );
      // The solved topic shows its accepted answer, which matches.
      assert.equal(first.results[1]?.source_id, solved.replies[0]!.id);
      for (const r of first.results) assert.ok(r.score > 0 && r.score <= 1);
      assert.ok(first.next_cursor);
      const second = await search.search([c], 'quokka', {
        sort: 'newest',
        limit: 2,
        cursor: first.next_cursor,
      });
      assert.deepEqual(
        second.results.map((r) => r.topic_id),
        [older.topic.id, oldest.topic.id],
      );
      assert.equal(second.next_cursor, undefined);
      const relevancePage = await search.search([c], 'quokka', { limit: 1 });
      await rejects(
        search.search([c], 'quokka', { sort: 'newest', cursor: relevancePage.next_cursor }),
        /cursor is not valid/,
      );
      await rejects(search.search([c], 'quokka', { sort: 'oldest' as never }), /filters\.sort/);
    });

    test('results have exactly the seed shape, a marked snippet, a post URL and a score in [0, 1]', async () => {
      const { community: c, topic } = await community();
      const { topic: t, replies } = await topic(
        'Verifying the hamlet-signature header',
        'How do I check the webhook signature?',
        {
          replies: [
            [
              ada,
              'HMAC the signature over the raw body, then reject anything older than five minutes.',
            ],
          ],
          solution: 0,
          category: 'support',
        },
      );
      const r = await search.search([c], 'webhook signature verification', {
        solved_only: true,
        limit: 2,
      });
      assert.equal(r.mode, 'lexical');
      assert.equal(r.query, 'webhook signature verification');
      assert.equal(r.total, 1);
      const hit = r.results[0]!;
      assert.deepEqual(
        Object.keys(hit).sort(),
        [
          'author',
          'category',
          // An answer's confidence from its verified outcomes (the knowledge fields of a result).
          'confidence',
          'created_at',
          'is_solution',
          'score',
          'snippet',
          'source_id',
          'source_type',
          'title',
          'topic_id',
          'url',
        ].sort(),
      );
      assert.equal(hit.source_type, 'post');
      assert.equal(hit.source_id, replies[0]!.id);
      assert.equal(hit.topic_id, t.id);
      assert.equal(hit.is_solution, true);
      assert.equal(hit.category, 'support');
      assert.equal(hit.author, 'Ada Lovelace');
      assert.equal(hit.url, `http://${c.slug}.hamlet.test:8787/t/${t.slug}#post-${replies[0]!.id}`);
      assert.match(hit.snippet, /\*\*signature\*\*/);
      assert.ok(hit.score > 0 && hit.score <= 1, String(hit.score));
      assert.match(hit.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    test('natural-language questions match on significant words (OR, stemming, stop words)', async () => {
      const { community: c, topic } = await community();
      await topic(
        'Configuring procmail recipes',
        'My procmail filters stopped working after the upgrade.',
      );
      await topic('Unrelated', 'Gardening tips for tomatoes.');
      const r = await search.search(
        [c],
        'How can I configure a procmail recipe so that it works?',
        {},
      );
      assert.equal(r.total, 1);
      assert.match(r.results[0]!.title, /procmail/);
      assert.equal(r.results[0]!.source_type, 'topic');
      assert.equal(r.results[0]!.url.includes('#post-'), false);
    });

    test('every word required ("all"): only topics holding each significant word, stemmed; "any" keeps the OR', async () => {
      const { community: c, topic } = await community();
      await topic(
        'Procmail recipes stopped',
        'My procmail filters stopped working after the upgrade.',
      );
      await topic('Procmail basics', 'How procmail delivers mail to folders.');
      await topic('Unrelated', 'Gardening tips for tomatoes and filters.');
      const question = 'Where are the procmail filter recipes?';
      const all = await search.search([c], question, {}, 'lexical', { words: 'all' });
      assert.deepEqual(
        all.results.map((r) => r.title),
        ['Procmail recipes stopped'],
      );
      const any = await search.search([c], question, {}, 'lexical', { words: 'any' });
      assert.equal(any.total, 3);
      assert.equal(
        (await search.search([c], 'procmail zzqqxx', {}, 'lexical', { words: 'all' })).total,
        0,
      );
      // A page of one listing is not a cursor of the other.
      const paged = await search.search([c], 'procmail filters', { limit: 1 }, 'lexical', {
        words: 'any',
      });
      assert.ok(paged.next_cursor);
      await assert.rejects(
        search.search(
          [c],
          'procmail filters',
          { limit: 1, cursor: paged.next_cursor! },
          'lexical',
          { words: 'all' },
        ),
        (err: unknown) => err instanceof DomainError && err.code === 'invalid_argument',
      );
    });

    test('an accepted answer outranks an equal unaccepted reply, and the topic is shown once', async () => {
      const { community: c, topic } = await community();
      const text = 'Set the zorblax timeout to thirty seconds in the config file.';
      await topic('Zorblax question one', 'first', {
        replies: [[bob, text]],
        createdAt: '2030-01-01T00:00:00.000Z',
      });
      const { replies } = await topic('Zorblax question two', 'second', {
        replies: [[bob, text]],
        solution: 0,
        createdAt: '2001-01-01T00:00:00.000Z',
      });
      const r = await search.search([c], 'zorblax timeout', {});
      assert.equal(r.total, 2);
      assert.equal(r.results[0]!.source_id, replies[0]!.id);
      assert.equal(r.results[0]!.is_solution, true);
      assert.ok(r.results[0]!.score > r.results[1]!.score);
      assert.equal(new Set(r.results.map((x) => x.topic_id)).size, r.results.length);
    });

    test('filters: category, tags, solved_only, source_types, author, since, until', async () => {
      const { community: c, topic } = await community();
      const w = `quux${rand()}`;
      await topic(`${w} in general`, `body ${w}`, {
        tags: ['alpha', 'beta'],
        createdAt: '2020-01-01T00:00:00.000Z',
      });
      await topic(`${w} in support`, `body ${w}`, {
        category: 'support',
        author: bob,
        tags: ['alpha'],
        createdAt: '2021-06-01T00:00:00.000Z',
        replies: [[bot, `reply ${w}`]],
        solution: 0,
      });
      await topic(`${w} article`, `article ${w}`, {
        category: 'docs',
        createdAt: '2022-01-01T00:00:00.000Z',
      });
      const titles = async (filters: object) =>
        (await search.search([c], w, filters)).results
          .map((r) => `${r.source_type}:${r.title}`)
          .sort();
      assert.deepEqual(await titles({ category: 'support' }), [`post:${w} in support`]);
      assert.deepEqual(await titles({ tags: ['alpha'] }), [
        `post:${w} in support`,
        `topic:${w} in general`,
      ]);
      assert.deepEqual(await titles({ tags: ['alpha', 'beta'] }), [`topic:${w} in general`]);
      assert.deepEqual(await titles({ solved_only: true }), [`post:${w} in support`]);
      assert.deepEqual(await titles({ source_types: ['article'] }), [`article:${w} article`]);
      assert.deepEqual(await titles({ source_types: ['topic'] }), [
        `topic:${w} in general`,
        `topic:${w} in support`,
      ]);
      assert.deepEqual(await titles({ author: 'bob builder' }), [`topic:${w} in support`]);
      // By the start of the name or of any word of it, whatever the case; nothing else matches.
      assert.deepEqual(await titles({ author: 'Bob' }), [`topic:${w} in support`]);
      assert.deepEqual(await titles({ author: 'build' }), [`topic:${w} in support`]);
      assert.deepEqual(await titles({ author: 'ob' }), []);
      assert.deepEqual(await titles({ author: 'b%' }), [], 'a LIKE wildcard is a plain character');
      assert.deepEqual(await titles({ author: '_ob' }), []);
      assert.deepEqual(await titles({ since: '2021-01-01' }), [
        `article:${w} article`,
        `post:${w} in support`,
      ]);
      assert.deepEqual(await titles({ until: '2021-01-01' }), [`topic:${w} in general`]);
      assert.deepEqual(await titles({ since: '2021-01-01', until: '2021-12-31T00:00:00Z' }), [
        `post:${w} in support`,
      ]);
      const agent = (await search.search([c], w, { source_types: ['post'] })).results[0]!;
      assert.equal(agent.author, 'helper-bot (agent)');
      assert.equal((await search.search([c], w, { limit: 1 })).results.length, 1);
      assert.equal((await search.search([c], w, { category: 'nope' })).total, 0);
    });

    test('pagination: stable keyset cursors cover every result once, in the one-page order', async () => {
      const { community: c, topic } = await community();
      const w = `pager${rand()}`;
      for (let i = 0; i < 23; i++)
        await topic(`${w} topic ${i}`, `${w} ${'filler '.repeat(i % 5)} body ${i}`, {
          createdAt: `2020-01-${String(1 + (i % 9)).padStart(2, '0')}T00:00:00.000Z`,
        });
      // What the community's text teaches the ranking is learned in the background: learn it first.
      await search.lexicon.ready([c.id]);
      const all = await search.search([c], w, { limit: 50 });
      assert.equal(all.total, 23);
      assert.equal(all.next_cursor, undefined);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await search.search([c], w, { limit: 5, cursor });
        assert.equal(page.total, 23);
        seen.push(...page.results.map((r) => r.source_id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor);
      assert.equal(pages, 5);
      assert.deepEqual(
        seen,
        all.results.map((r) => r.source_id),
      );
      const again = await search.search([c], w, { limit: 5 });
      const p2a = await search.search([c], w, { limit: 5, cursor: again.next_cursor });
      const p2b = await search.search([c], w, { limit: 5, cursor: again.next_cursor });
      assert.deepEqual(p2a, p2b);
      await rejects(search.search([c], `${w} other`, { cursor: again.next_cursor }), /cursor/);
      await rejects(search.search([c], w, { cursor: 'garbage' }), /cursor/);
    });

    test('the pooled hot path agrees with the filtered path past its first pool (order, representatives, totals, pages)', async () => {
      const { community: c, topic } = await community();
      const w = `pool${rand()}`;
      // More matching posts than one pool (200): accepted answers inside and outside the pool.
      for (let i = 0; i < 150; i++) {
        const replies: [AuthorRef, string][] = [
          [bob, i % 4 === 0 ? `${w} reply ${'filler '.repeat(i % 11)}` : `no match ${i}`],
        ];
        if (i % 3 === 0) replies.push([ada, `${w} ${w} answer ${'pad '.repeat(i % 7)}`]);
        await topic(`${w} topic ${i}`, `${'words '.repeat(i % 13)} ${w} body ${i}`, {
          replies,
          solution: i % 5 === 0 ? 0 : undefined,
          createdAt: `20${String(10 + (i % 19)).padStart(2, '0')}-03-01T00:00:00.000Z`,
        });
      }
      await search.lexicon.ready([c.id]);
      const hot = await search.search([c], w, { limit: 50 });
      const full = await search.search([c], w, { limit: 50, since: '1990-01-01' });
      assert.equal(hot.total, 150);
      assert.equal(full.total, 150);
      assert.deepEqual(
        hot.results.map((r) => r.source_id),
        full.results.map((r) => r.source_id),
      );
      hot.results.forEach((r, i) => assert.ok(Math.abs(r.score - full.results[i]!.score) < 0.0002));
      const pages: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await search.search([c], w, { limit: 7, cursor });
        assert.equal(page.total, 150);
        pages.push(...page.results.map((r) => r.source_id));
        cursor = page.next_cursor;
      } while (cursor);
      const all = await search.search([c], w, { limit: 50, since: '1990-01-01' });
      let fullPages = [...all.results.map((r) => r.source_id)];
      for (let next = all.next_cursor; next;) {
        const page = await search.search([c], w, { limit: 50, since: '1990-01-01', cursor: next });
        fullPages.push(...page.results.map((r) => r.source_id));
        next = page.next_cursor;
      }
      assert.equal(pages.length, 150);
      assert.deepEqual(pages, fullPages);
    });

    test('invalid input names the field and the fix', async () => {
      const { community: c } = await community();
      await rejects(search.search([c], '   ', {}), /^query must not be empty/);
      await rejects(search.search([c], '-only -exclusions', {}), /query has no words/);
      await rejects(
        search.search([c], 'x', { limit: 51 }),
        /filters\.limit: must be between 1 and 50/,
      );
      await rejects(search.search([c], 'x', { limit: 0 }), /limit/);
      await rejects(
        search.search([c], 'x', { since: 'yesterday' }),
        /filters\.since: must be an ISO 8601 date/,
      );
      await rejects(search.search([c], 'x', { until: '2024-13-45' }), /until/);
      await rejects(
        search.search([c], 'x', { since: '2024-02-01', until: '2024-01-01' }),
        /since must be earlier/,
      );
      await rejects(
        search.search([c], 'x', { source_types: ['comment' as 'post'] }),
        /source_types/,
      );
      await rejects(
        search.search([c], 'x', {}, 'semantic'),
        /no.*embedding model|none is configured.*lexical/,
      );
      await rejects(search.suggestAnswer([c], ''), /question must not be empty/);
    });

    test('phrases in quotes, -word exclusion, typo correction, and no query-syntax injection', async () => {
      const { community: c, topic } = await community();
      await topic(
        'Fetchmail daemon keeps crashing',
        'the daemon mode of fetchmail crashes every night',
      );
      await topic(
        'Crashing daemon of sendmail',
        'sendmail keeps crashing, mode of the daemon unclear',
      );
      const phrase = await search.search([c], '"fetchmail crashes"', {});
      assert.deepEqual(
        phrase.results.map((r) => r.title),
        ['Fetchmail daemon keeps crashing'],
      );
      const excluded = await search.search([c], 'daemon crashing -sendmail', {});
      assert.deepEqual(
        excluded.results.map((r) => r.title),
        ['Fetchmail daemon keeps crashing'],
      );
      const typo = await search.search([c], 'fetchmial', {});
      assert.equal(typo.results[0]?.title, 'Fetchmail daemon keeps crashing');
      assert.match(typo.results[0]!.snippet, /\*\*fetchmail\*\*/i);
      for (const nasty of [
        'daemon" OR "x',
        'NEAR(daemon sendmail)',
        'daemon* AND (',
        "sendmail' | !daemon",
        'col:daemon ^sendmail',
        '!!& | <-> :*',
      ]) {
        const r = await search.search([c], nasty, {}).catch((e: unknown) => e);
        if (r instanceof DomainError) assert.equal(r.code, 'invalid_argument');
        else
          assert.ok(
            Array.isArray((r as { results: unknown[] }).results),
            `${nasty} did not answer`,
          );
      }
    });

    test('typo correction sees words indexed after its vocabulary was cached', async () => {
      const { community: c, topic } = await community();
      const w = `vocab${rand()}q`;
      const typo = `${w.slice(0, -2)}${w.at(-1)}${w.at(-2)}`; // the last two letters swapped
      // The first search caches the vocabulary of the typo's first letters (the word is not there yet).
      assert.equal((await search.search([c], typo, {})).total, 0);
      await topic(`The ${w} handbook`, `everything about ${w}`);
      const r = await search.search([c], typo, {});
      assert.equal(r.results[0]?.title, `The ${w} handbook`);
    });

    test('typo correction leaves out near-stop neighbours (stop words, words of most topics) while another word matches', async () => {
      const { community: c, topic } = await community();
      const letters = rand().replace(/\d/g, 'k');
      const common = `zc${letters}`;
      const rare = `zr${letters}`;
      for (let i = 0; i < 4; i++)
        await topic(
          `Topic ${i} on ${common}`,
          `${common} ${i === 0 ? rare : 'plain'}, where there is more`,
        );
      await search.ready([c.id]);
      const typed = `${common.slice(0, -1)}x`; // one letter off the word of every topic
      // Alone, the neighbours are all the query has: kept.
      assert.equal((await search.search([c], typed, {})).total, 4);
      // With a word that matches, a neighbour of every topic adds nothing to the ranking: left out.
      assert.equal((await search.search([c], `${rare} ${typed}`, {})).total, 1);
      // A neighbour that is a stop word ("there") is never searched while another word matches.
      assert.equal((await search.search([c], `${rare} thera`, {})).total, 1);
    });

    test('typo correction sees only the searched communities: a private word changes nothing elsewhere', async () => {
      const { community: open, topic: openTopic } = await community('public');
      const { topic: secretTopic } = await community('private');
      const stem = `zq${rand().replace(/\d/g, 'k')}`;
      // The public word, and what the searcher types: one letter off.
      const word = `${stem}ab`;
      const typed = `${stem}ax`;
      await openTopic(`About ${word}`, `notes on ${word}`);
      // Private words one edit from the typed word, more frequent than the public one, and the
      // typed word itself.
      for (const other of [`${stem}ac`, `${stem}ad`, `${stem}ae`]) {
        for (let i = 0; i < 3; i++) await secretTopic(`Secret ${other} ${i}`, `${other} ${other}`);
      }
      const before = await search.search([open], typed, {});
      assert.equal(before.total, 1);
      assert.equal(before.results[0]?.title, `About ${word}`);
      await secretTopic(`Secret ${typed}`, `the typed word ${typed} itself`);
      const after = await search.search([open], typed, {});
      assert.equal(
        after.total,
        1,
        'a word only in a private community turned the typo correction off',
      );
      assert.equal(after.results[0]?.title, `About ${word}`);
      assert.deepEqual(
        await search.index.unmatched([typed], { kind: 'communities', ids: [open.id] }),
        [typed],
      );
    });

    test('network search: private communities never appear; each result names its community', async () => {
      const w = `netword${rand()}`;
      const pub1 = await community('public');
      const pub2 = await community('public');
      const priv = await community('private');
      for (const x of [pub1, pub2, priv])
        await x.topic(`${w} in ${x.community.slug}`, `about ${w}`);
      // What the network caller does: every public community (paged), nothing else.
      const publics: Community[] = [];
      let next: { key: string | number; id: string } | undefined;
      do {
        const page = await store.communities.listPublic({ after: next, limit: 100 });
        publics.push(...page.items);
        next = page.next ?? undefined;
      } while (next);
      const r = await search.search(publics, w, { limit: 50 });
      assert.deepEqual(
        r.results.map((x) => x.community).sort(),
        [pub1.community.slug, pub2.community.slug].sort(),
      );
      assert.ok(r.results.every((x) => !x.url.includes(priv.community.slug)));
      const s = await search.suggestAnswer(publics, `${w}?`, 5, { askWith: 'ask_community' });
      assert.ok(s.answers.every((a) => a.community !== priv.community.slug));
      const single = await search.search([pub1.community], w, {});
      assert.equal('community' in single.results[0]!, false);
    });

    test('suggest_answer: accepted answers first with a confidence, or a plain statement to ask', async () => {
      const { community: c, topic } = await community();
      const { replies } = await topic(
        'Bayes database grows without limit',
        'My bayes_toks file keeps growing, how do I shrink the bayes database?',
        {
          replies: [
            [bob, 'Me too'],
            [
              ada,
              'Run sa-learn --force-expire to expire old tokens; set bayes_expiry_max_db_size.',
            ],
          ],
          solution: 1,
        },
      );
      await topic('Bayes training question', 'How much ham do I need for bayes training?', {
        replies: [[bob, 'At least 200 of each.']],
      });
      const s = await search.suggestAnswer(
        [c],
        'how can I shrink my bayes database, it keeps growing?',
      );
      assert.equal(s.answers[0]!.source_id, replies[1]!.id);
      assert.equal(s.answers[0]!.accepted, true);
      assert.equal(s.answers[0]!.is_solution, true);
      assert.ok(s.answers.every((a) => a.accepted));
      assert.ok(s.confidence >= 0.5 && s.confidence <= 1, String(s.confidence));
      assert.match(s.message, /accepted answer/);
      const none = await search.suggestAnswer([c], 'kubernetes helm chart rollback');
      assert.deepEqual(none.answers, []);
      assert.equal(none.confidence, 0);
      assert.match(none.message, /Nothing in .* matches this question\. Ask it with create_topic/);
      const unaccepted = await search.suggestAnswer([c], 'how much ham for training');
      assert.equal(unaccepted.answers[0]!.accepted, false);
      assert.ok(unaccepted.confidence < 0.6);
      assert.match(unaccepted.message, /No accepted answer .* create_topic/);
    });

    test('edits are indexed: post body, topic title, article body', async () => {
      const { community: c, scope, topic } = await community();
      const { topic: t, first } = await topic('Original heading', 'plain words');
      await scope.posts.updateBody(first.id, 'now mentions xylophones');
      await scope.topics.update(t.id, { title: 'Renamed marimba heading' });
      assert.equal((await search.search([c], 'xylophone', {})).total, 1);
      assert.equal((await search.search([c], 'marimba', {})).total, 1);
      assert.equal((await search.search([c], 'original', {})).total, 0);
      assert.equal((await search.search([c], 'plain', {})).total, 0);
      // What the filters test follows the topic: its category and its accepted answer.
      const reply = await scope.posts.create({
        topicId: t.id,
        author: bob,
        body: 'a xylophone answer',
      });
      const support = (await scope.categories.getBySlug('support'))!;
      await scope.topics.update(t.id, { categoryId: support.id, solutionPostId: reply.id });
      const found = await search.search([c], 'xylophone', {
        category: 'support',
        solved_only: true,
        source_types: ['post'],
      });
      assert.deepEqual(
        found.results.map((r) => [r.source_id, r.is_solution, r.category]),
        [[reply.id, true, 'support']],
      );
      assert.equal((await search.search([c], 'xylophone', { category: 'general' })).total, 0);
      const report = await search.index.verify();
      assert.deepEqual(
        { missing: report.missing, stale: report.stale, orphans: report.orphans },
        { missing: 0, stale: 0, orphans: 0 },
      );
    });

    test('thread profiles follow every write: edits, a new accepted answer, a deleted topic; the head ranks by the whole thread', async () => {
      const { community: c, scope, topic } = await community();
      const w = `prof${rand()}`;
      // A: the question's second word is only in a reply; B: a stronger single-word match.
      const a = await topic(`${w} notes`, `${w} ${'filler '.repeat(30)}`, {
        replies: [
          [bob, 'try the gizmotron setting'],
          [ada, 'thanks'],
        ],
      });
      const b = await topic(`${w} ${w} ${w}`, `${w} ${w} ${w}`);
      // What the community's text teaches the ranking is learned in the background: learn it first.
      await search.lexicon.ready([c.id]);
      const profile = async (id: string) => (await search.profiles.read([id])).get(id);
      assert.deepEqual(countsOf((await profile(a.topic.id))!, 'gizmotron'), [0, 0, 0, 1]);
      const top = async (q: string) =>
        (await search.search([c], q, {})).results.map((r) => r.topic_id);
      assert.deepEqual(await top(`${w} gizmotron`), [a.topic.id, b.topic.id]);
      // Edited and accepted: read at once, before any background pass.
      await scope.posts.updateBody(
        a.replies[1]!.id,
        'the gizmotron setting fixed it, gizmotron again',
      );
      await scope.topics.update(a.topic.id, { solutionPostId: a.replies[1]!.id });
      assert.deepEqual(countsOf((await profile(a.topic.id))!, 'gizmotron'), [0, 0, 2, 1]);
      await scope.posts.updateBody(a.replies[0]!.id, 'no idea');
      await scope.posts.updateBody(a.replies[1]!.id, 'solved');
      assert.equal(countsOf((await profile(a.topic.id))!, 'gizmotron'), undefined);
      await search.profiles.ready();
      assert.deepEqual(countsOf((await profile(a.topic.id))!, 'solv'), [0, 0, 1, 0]);
      // A topic deleted by any writer (here plain SQL) loses its profile.
      await opened.db.deleteFrom('topics').where('id', '=', b.topic.id).execute();
      await search.profiles.ready();
      assert.equal((await search.profiles.read([b.topic.id])).size, 0);
      assert.deepEqual(await top(w), [a.topic.id]);
    });

    test('a profile is stored only by the pass that claims its queue entry: generations never repeat, an older text never overwrites a newer one', async () => {
      const { scope, topic } = await community();
      const { topic: t, first } = await topic('Generation heading', 'plain words');
      await search.profiles.ready();
      const genOf = async () => {
        const row = await opened.db
          .selectFrom('search_profile_queue')
          .select('gen')
          .where('topic_id', '=', t.id)
          .executeTakeFirst();
        return row ? Number(row.gen) : undefined;
      };
      await scope.posts.updateBody(first.id, 'the older text mentions quokkas');
      const older = { topic_id: t.id, gen: (await genOf())! };
      // A slow instance reads the entry and builds from the older text; a faster one finishes first.
      const stale = await buildProfiles(opened.db, [t.id]);
      await search.profiles.ready();
      assert.equal(await genOf(), undefined);
      await scope.posts.updateBody(first.id, 'the newer text mentions wombats');
      assert.ok((await genOf())! > older.gen, 'a generation read once is never seen again');
      assert.equal(
        await storeClaimed(opened.db, [older], stale),
        0,
        'the slow instance claims nothing',
      );
      assert.ok((await genOf())! > older.gen, 'the newer write stays queued');
      await search.profiles.ready();
      const stored = (await search.profiles.read([t.id])).get(t.id)!;
      assert.ok(countsOf(stored, 'wombat'));
      assert.equal(countsOf(stored, 'quokka'), undefined);
    });

    test("what search learns is stored per community: another instance reads it, and one community's words never reach another", async () => {
      const secret = await community('private');
      const open = await community();
      // Letters only (a term with more than two digits is not a content word), ending in a consonant the stemmer keeps.
      const w = `hush${rand().replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}q`;
      await secret.topic(`${w} plans`, `the ${w} launch`);
      await secret.topic(`More ${w}`, `${w} again`);
      await open.topic('Public notes', 'nothing private here');
      await open.topic('Public notes two', 'nothing private here either');
      await search.lexicon.ready([secret.community.id, open.community.id]);
      const stamp = async () =>
        (
          await opened.db
            .selectFrom('search_lexicon')
            .select('built_at')
            .where('community_id', '=', secret.community.id)
            .executeTakeFirstOrThrow()
        ).built_at;
      const first = await stamp();
      const other = new SearchService(store, createSearchIndex(opened.db, opened.dialect), config);
      await other.lexicon.ready([secret.community.id, open.community.id]);
      assert.equal(await stamp(), first);
      const learned = other.lexicon.learned([secret.community.id, open.community.id]);
      assert.equal(learned.get(secret.community.id)!.df.get(w), 2);
      assert.equal(learned.get(open.community.id)!.df.has(w), false);
      assert.equal(learned.get(open.community.id)!.df.get('privat'), 2);
    });

    test('the index equals the tables after a rolled-back transaction and after a SIGKILL mid-write', async () => {
      const { community: c, scope, topic } = await community();
      const { topic: t } = await topic('Crash test', 'survivor');
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx
            .community(c.id)
            .posts.create({ topicId: t.id, author: ada, body: 'rolledbackword' });
          throw new Error('abort');
        }),
      );
      assert.equal((await search.search([c], 'rolledbackword', {})).total, 0);
      // A child process writes posts in one long transaction and is killed before committing, then
      // a second one is killed between committed single-post transactions.
      for (const mode of ['uncommitted', 'committed']) {
        const child = spawn(
          process.execPath,
          [...childScript(import.meta.url, './crash-child.ts'), factory.url, c.id, t.id, mode],
          {
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        await new Promise<void>((resolve, reject) => {
          let out = '';
          child.stdout!.on('data', (d: Buffer) => {
            out += d.toString();
            if (out.includes('ready')) resolve();
          });
          child.on('exit', (code) => reject(new Error(`child exited early (${code}): ${out}`)));
        });
        child.kill('SIGKILL');
        await new Promise((r) => child.once('close', r));
      }
      const report = await search.index.verify();
      assert.equal(report.indexed, report.posts);
      assert.deepEqual(
        { missing: report.missing, stale: report.stale, orphans: report.orphans },
        { missing: 0, stale: 0, orphans: 0 },
      );
      assert.equal((await search.search([c], 'uncommittedword', {})).total, 0);
      const posts = await scope.posts.listByTopic(t.id, { limit: 1000 });
      const committed = posts.items.filter(
        (p) => p.body.includes('committedword') && !p.body.includes('uncommittedword'),
      ).length;
      assert.ok(committed > 0);
      const r = await search.search([c], 'committedword', { source_types: ['post'] });
      assert.equal(r.total, 1, 'one result per topic');
    });

    test('hybrid mode with a local embedder fuses lexical and semantic ranks (RRF)', async () => {
      const hybrid = new SearchService(
        store,
        createSearchIndex(opened.db, opened.dialect),
        config,
        { embedder: new HashingEmbedder(64) },
      );
      const { community: c, topic } = await community();
      await topic('Spam filter scores', 'how are spam scores computed by the filter');
      await topic('Filter for newsletters', 'a filter that sorts newsletters');
      const r = await hybrid.search([c], 'spam filter scores', {}, 'hybrid');
      assert.equal(r.mode, 'hybrid');
      assert.equal(r.results[0]!.title, 'Spam filter scores');
      assert.ok(r.results.every((x) => x.score >= 0 && x.score <= 1));
      const s = await hybrid.search([c], 'spam filter scores', { limit: 1 }, 'semantic');
      assert.equal(s.mode, 'semantic');
      assert.equal(s.results.length, 1);
      const p2 = await hybrid.search(
        [c],
        'spam filter scores',
        { limit: 1, cursor: s.next_cursor },
        'semantic',
      );
      assert.notEqual(p2.results[0]!.source_id, s.results[0]!.source_id);
      assert.deepEqual(
        reciprocalRankFusion([
          ['a', 'b', 'c'],
          ['c', 'a'],
        ]).map((x) => x.id),
        ['a', 'c', 'b'],
      );
    });

    test("hybrid fuses what lexical search answers (the re-ranked head), not the engine's raw order", async () => {
      // An embedder that cannot tell texts apart adds nothing: hybrid then ranks exactly as lexical does.
      const blind: Embedder = {
        name: 'blind',
        dimensions: 2,
        embed: async (texts) => texts.map(() => Float32Array.of(1, 1)),
      };
      const { community: c, topic } = await community();
      const w = `fuse${rand()}`;
      // A: the question's second word is only in a reply (the head, which reads whole threads, puts A first).
      await topic(`${w} notes`, `${w} ${'filler '.repeat(30)}`, {
        replies: [
          [bob, 'try the gizmotron setting'],
          [ada, 'thanks'],
        ],
      });
      // B and C: stronger single-word matches, which the engine, ranking posts one by one, puts first.
      await topic(`${w} ${w} ${w}`, `${w} ${w} ${w}`);
      await topic('gizmotron gizmotron gizmotron', 'gizmotron gizmotron gizmotron');
      await search.lexicon.ready([c.id]);
      const blindSearch = new SearchService(
        store,
        createSearchIndex(opened.db, opened.dialect),
        config,
        { embedder: blind },
      );
      await blindSearch.lexicon.ready([c.id]);
      const topics = async (s: SearchService, mode: 'lexical' | 'hybrid') =>
        (await s.search([c], `${w} gizmotron`, {}, mode)).results.map((r) => r.topic_id);
      const lexical = await topics(search, 'lexical');
      assert.equal(lexical.length, 3);
      assert.deepEqual(await topics(blindSearch, 'hybrid'), lexical);
      // The lexical list given to the fusion: the pool's posts, topics of the head first in the head's order.
      const pool = [
        { postId: 'p1', topicId: 't1' },
        { postId: 'p2', topicId: 't2' },
        { postId: 'p3', topicId: 't3' },
        { postId: 'p4', topicId: 't2' },
      ];
      assert.deepEqual(inHeadOrder(pool, [{ topicId: 't2' }, { topicId: 't1' }]), [
        'p2',
        'p4',
        'p1',
        'p3',
      ]);
    });
  });
}
