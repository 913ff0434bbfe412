// The demo community, as a visitor and an agent would find it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../src/config/config.ts';
import { openHamlet } from '../src/main.ts';
import { createLogger } from '../src/log.ts';
import { ensureDemoCommunity } from '../src/demo/demo.ts';
import { anonymous, systemActor } from '../src/domain/actor.ts';
import { DomainError } from '../src/domain/errors.ts';
import { hamCorpusDirs } from '../src/import/ham-corpus.ts';

test('ensureDemoCommunity creates acme (public) and skunkworks (private) once, with real content', async () => {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:' });
  const { store, services } = await openHamlet(config, { logger: createLogger('silent') });
  try {
    const result = await ensureDemoCommunity(store, services, config);
    assert.equal(result.created, true);
    const { communities, content } = services;
    const acme = await communities.require(anonymous, 'acme');
    assert.equal(acme.name, 'Acme');

    const categories = await content.listCategories(anonymous, acme);
    assert.deepEqual(
      categories.map((c) => [c.slug, c.kind]),
      [
        ['support', 'discussion'],
        ['general', 'discussion'],
        ['docs', 'knowledge_base'],
      ],
    );
    const articles = await content.listTopics(anonymous, acme, { category: 'docs' });
    assert.deepEqual(articles.topics.map((t) => t.title).sort(), [
      'Connecting an agent over MCP',
      'Getting started with Hamlet',
    ]);

    const solved = await content.listTopics(anonymous, acme, { filter: 'solved' });
    assert.ok(solved.topics.length >= 1);
    const topic = await content.getTopic(anonymous, acme, { topic: solved.topics[0]!.id });
    const solution = topic.posts.find((p) => p.isSolution)!;
    assert.equal(solution.author.kind, 'agent');
    assert.equal(
      solution.author.kind === 'agent' && solution.author.label,
      'posted by agent acme-helper on behalf of community acme',
    );

    if (hamCorpusDirs()) {
      assert.ok(
        result.created && result.imported && result.imported.topicsCreated > 10,
        'mailing-list threads imported',
      );
      const general = await content.listTopics(anonymous, acme, {
        category: 'general',
        limit: 100,
      });
      assert.ok(general.topics.filter((t) => t.createdAt.startsWith('2002')).length > 10);
      assert.ok(general.topics.every((t) => t.replyCount >= 0));
    }

    await assert.rejects(
      communities.require(anonymous, 'skunkworks'),
      (e: unknown) => e instanceof DomainError && e.code === 'not_found',
    );
    const skunk = await communities.require(systemActor(), 'skunkworks');
    assert.equal(skunk.visibility, 'private');
    assert.deepEqual(
      (await communities.listPublic()).communities.map((c) => c.slug),
      ['acme'],
    );

    const again = await ensureDemoCommunity(store, services, config);
    assert.equal(again.created, false);
    assert.equal(
      (await content.listTopics(anonymous, acme, { category: 'docs' })).topics.length,
      2,
    );
  } finally {
    await store.close();
  }
});
