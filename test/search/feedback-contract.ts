// Pseudo-relevance feedback (src/search/feedback.ts), on both engines: a weak first pass searched
// again with the words its best threads share finds a thread that holds none of the question's
// words, and the feedback is learned from the searched community only (another community's threads,
// full of the question's word and words of their own, never add a word).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/repositories.ts';
import type { AuthorRef } from '../../src/store/types.ts';
import { loadConfig } from '../../src/config/config.ts';
import { SearchService } from '../../src/search/service.ts';
import { createSearchIndex } from '../../src/search/engine.ts';
import type { OpenedDatabase } from '../../src/store/open.ts';
import type { SearchFactory } from './contract.ts';

const ada: AuthorRef = { kind: 'person', id: null, name: 'Ada Lovelace' };
const config = loadConfig({ HAMLET_BASE_DOMAIN: 'hamlet.test', PORT: '8787' });

export function defineFeedbackContract(engine: string, factory: SearchFactory): void {
  describe(`search feedback contract (${engine})`, () => {
    let store: Store;
    let opened: OpenedDatabase;

    before(async () => {
      opened = await factory.open();
      store = opened.store;
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    async function community(slug: string) {
      const c = await store.communities.create({ slug, name: slug, visibility: 'public' });
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const topic = async (title: string, body: string) => {
        const t = await scope.topics.create({
          categoryId: category.id,
          slug: `t-${title.toLowerCase().replace(/\W+/g, '-')}`,
          title,
          author: ada,
        });
        await scope.posts.create({ topicId: t.id, author: ada, body });
        return t;
      };
      return { community: c, topic };
    }

    test('a weak first pass finds, through its best threads, a thread without the question’s words; never through another community', async () => {
      const own = await community('feedback-own');
      await own.topic(
        'Widget wobbles',
        'My widget wobbles until the frobnicator calibration runs.',
      );
      await own.topic('Widget drift', 'Widget drift goes away after a frobnicator calibration.');
      await own.topic(
        'Calibrating the frobnicator',
        'The frobnicator calibration: hold the reset pin for ten seconds.',
      );
      await own.topic('Zebrafish tank', 'A zebrafish tank heater and its thermostat settings.');
      // Another community: the question's word beside a word of its own, in every thread.
      const other = await community('feedback-other');
      for (const n of [1, 2, 3, 4, 5, 6])
        await other.topic(`Widget zebrafish ${n}`, `widget zebrafish widget zebrafish note ${n}`);

      const search = (feedback: boolean) =>
        new SearchService(store, createSearchIndex(opened.db, opened.dialect), config, {
          ...(feedback ? { feedback: {} } : {}),
        });
      const titles = async (s: SearchService) => {
        await s.ready([own.community.id]);
        return (await s.search([own.community], 'widget', { limit: 10 })).results.map(
          (r) => r.title,
        );
      };
      const without = await titles(search(false));
      assert.deepEqual([...without].sort(), ['Widget drift', 'Widget wobbles']);
      const withFeedback = await titles(search(true));
      // Two matching topics: a weak pass. The question's own matches stay first.
      assert.deepEqual(withFeedback.slice(0, 2).sort(), ['Widget drift', 'Widget wobbles']);
      assert.ok(withFeedback.includes('Calibrating the frobnicator'), withFeedback.join(' | '));
      // "zebrafish" is in every thread of the other community that holds "widget": not learned here.
      assert.ok(!withFeedback.includes('Zebrafish tank'), withFeedback.join(' | '));
      assert.ok(!withFeedback.some((t) => t.startsWith('Widget zebrafish')));
    });
  });
}
