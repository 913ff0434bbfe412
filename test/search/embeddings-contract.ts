// Semantic and hybrid search over an OpenAI-compatible embeddings endpoint, on a real engine
// (sqlite.test.ts, postgres.test.ts): the endpoint is a tiny server started here whose vectors are
// deterministic concepts (car ~ sedan ~ vehicle, bicycle ~ bike), so "car" finds the sedan thread
// although no word is shared. An endpoint that is down makes those searches run lexically.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { OpenedDatabase } from '../../src/store/open.ts';
import { loadConfig } from '../../src/config/config.ts';
import { SearchService } from '../../src/search/service.ts';
import { createSearchIndex } from '../../src/search/engine.ts';
import {
  EmbeddingBackfill,
  OpenAIEmbedder,
  PostVectors,
  semanticSearch,
} from '../../src/search/embeddings.ts';
import type { SearchFactory } from './contract.ts';
import type { Logger } from '../../src/log.ts';

const CONCEPTS: Record<string, number> = {
  car: 0,
  sedan: 0,
  vehicle: 0,
  automobile: 0,
  bicycle: 1,
  bike: 1,
  rattle: 2,
  rattles: 2,
  noise: 2,
};
const DIMS = 8;

/** Concept words on their own axis; any other word adds a little to a hashed axis. */
function vectorOf(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const c = CONCEPTS[w];
    if (c !== undefined) v[c]! += 1;
    else v[3 + ([...w].reduce((h, ch) => h * 31 + ch.charCodeAt(0), 7) % (DIMS - 3))]! += 0.05;
  }
  return v;
}

export function defineEmbeddingsContract(engine: string, factory: SearchFactory): void {
  describe(`semantic search contract, over an embeddings endpoint (${engine})`, () => {
    let opened: OpenedDatabase;
    let server: Server;
    let base = '';
    const requests: { auth?: string; model: string; inputs: number }[] = [];

    before(async () => {
      opened = await factory.open();
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const parsed = JSON.parse(body) as { model: string; input: string[] };
          requests.push({
            auth: req.headers.authorization,
            model: parsed.model,
            inputs: parsed.input.length,
          });
          if (req.url !== '/v1/embeddings') return res.writeHead(404).end('no such path');
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              object: 'list',
              data: parsed.input.map((t, index) => ({
                object: 'embedding',
                index,
                embedding: vectorOf(t),
              })),
            }),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    after(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await opened?.store.close();
      await factory.cleanup?.();
    });

    test('posts are embedded in the background, stored per post, and ranked by meaning in hybrid mode', async () => {
      const config = loadConfig({
        HAMLET_BASE_DOMAIN: 'hamlet.test',
        HAMLET_EMBEDDINGS_URL: base,
        HAMLET_EMBEDDINGS_MODEL: 'concepts',
        HAMLET_EMBEDDINGS_KEY: 'sk-test',
        HAMLET_EMBEDDINGS_BATCH: '2',
      });
      const { store, db, dialect } = opened;
      const c = await store.communities.create({
        slug: `e-${randomBytes(4).toString('hex')}`,
        name: 'E',
        visibility: 'public',
      });
      const scope = store.community(c.id);
      const cat = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const topic = async (title: string, body: string) => {
        const t = await scope.topics.create({
          categoryId: cat.id,
          slug: `t-${randomBytes(4).toString('hex')}`,
          title,
          author: { kind: 'person', id: null, name: 'Ada' },
        });
        return scope.posts.create({
          topicId: t.id,
          author: { kind: 'person', id: null, name: 'Ada' },
          body,
        });
      };
      // The bicycle thread says "rattles" twice: lexically it is the better match for the question.
      await topic('Strange sounds', 'my bicycle rattles and rattles on every ride');
      const sedan = await topic('My sedan on the motorway', 'the vehicle rattles');
      await topic(
        'Garden gate',
        'the old garden gate rattles in the wind at night, every night since the storm',
      );
      await topic('Gardening', 'tomatoes need sun');

      // Started by semanticSearch: the background fill embeds every post, two per request.
      const progress: number[] = [];
      const semantic = semanticSearch(config, db, (p) => progress.push(p.done));
      assert.ok(semantic, 'configured: semantic search is set up');
      for (let i = 0; i < 250 && semantic.backfill.progress().done < 4; i++)
        await new Promise((r) => setTimeout(r, 20));
      await semantic.stop();
      assert.deepEqual(progress, [2, 4]);
      assert.deepEqual(semantic.backfill.progress(), { done: 4, total: 4, running: false });
      assert.ok(
        requests.every(
          (r) => r.auth === 'Bearer sk-test' && r.model === 'concepts' && r.inputs <= 2,
        ),
      );
      const stored = await sql<{
        n: number | string;
        dims: number;
      }>`select count(*) as n, max(dims) as dims from search_embeddings where model = 'concepts'`.execute(
        db,
      );
      assert.equal(Number(stored.rows[0]!.n), 4);
      assert.equal(Number(stored.rows[0]!.dims), DIMS);

      const search = new SearchService(
        store,
        createSearchIndex(db, dialect),
        config,
        semantic.options,
      );
      const lexical = await search.search([c], 'car rattles', {});
      assert.equal(lexical.mode, 'lexical');
      assert.deepEqual(
        lexical.results.map((r) => r.title),
        ['Strange sounds', 'My sedan on the motorway', 'Garden gate'],
      );
      const hybrid = await search.search([c], 'car rattles', {}, 'hybrid');
      assert.equal(hybrid.mode, 'hybrid');
      assert.equal(hybrid.results[0]!.source_id, sedan.topicId);
      const meaning = await search.search([c], 'car rattles', {}, 'semantic');
      assert.equal(meaning.results[0]!.title, 'My sedan on the motorway');

      // An edit drops the post's vector; the next fill embeds the new text.
      await scope.posts.updateBody(sedan.id, 'the automobile rattles above 100');
      assert.equal(await semantic.backfill.runOnce(), 1);
      assert.equal(await semantic.backfill.runOnce(), 0);
    });

    test('an unreachable endpoint: hybrid, semantic and suggest_answer run lexically and say so, one warning', async () => {
      const { store, db, dialect } = opened;
      const c = await store.communities.create({
        slug: `down-${randomBytes(4).toString('hex')}`,
        name: 'Down',
        visibility: 'public',
      });
      const scope = store.community(c.id);
      const cat = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      for (const [title, body] of [
        ['Wheel bearing noise', 'the front wheel bearing makes a grinding noise when turning'],
        ['Brake noise at low speed', 'brakes squeal with a high noise at low speed'],
      ]) {
        const t = await scope.topics.create({
          categoryId: cat.id,
          slug: `t-${randomBytes(4).toString('hex')}`,
          title: title!,
          author: { kind: 'person', id: null, name: 'Ada' },
        });
        await scope.posts.create({
          topicId: t.id,
          author: { kind: 'person', id: null, name: 'Ada' },
          body: body!,
        });
      }
      // A port nothing listens on: every embeddings request is refused.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const warnings: { fields: Record<string, unknown>; msg: string }[] = [];
      const logger = {
        warn: (fields: Record<string, unknown>, msg: string) => warnings.push({ fields, msg }),
        info: () => undefined,
      } as unknown as Logger;
      const config = loadConfig({ HAMLET_BASE_DOMAIN: 'hamlet.test' });
      const search = new SearchService(store, createSearchIndex(db, dialect), config, {
        embedder: new OpenAIEmbedder({ url: `http://127.0.0.1:${port}/v1`, model: 'down' }),
        vectors: new PostVectors(db, 'down'),
        logger,
      });

      const lexical = await search.search([c], 'wheel noise', {}, 'lexical');
      for (const mode of ['hybrid', 'semantic', 'hybrid', 'semantic'] as const) {
        const r = await search.search([c], 'wheel noise', {}, mode);
        assert.equal(r.mode, 'lexical', `${mode} answered lexically`);
        assert.deepEqual(
          r.results.map((x) => x.title),
          lexical.results.map((x) => x.title),
        );
      }
      const suggested = await search.suggestAnswer([c], 'Why does my wheel make a noise?');
      assert.ok(suggested.answers.length > 0, suggested.message);
      // A page of a fallback goes on lexically, whichever mode asks for the next one.
      const first = await search.search([c], 'noise', { limit: 1 }, 'hybrid');
      assert.equal(first.mode, 'lexical');
      assert.ok(first.next_cursor);
      const second = await search.search(
        [c],
        'noise',
        { limit: 1, cursor: first.next_cursor },
        'hybrid',
      );
      assert.equal(second.mode, 'lexical');
      assert.notEqual(second.results[0]!.topic_id, first.results[0]!.topic_id);
      await assert.rejects(
        search.search([c], 'noise', { cursor: 'bm90LWEtY3Vyc29y' }, 'hybrid'),
        /cursor is not valid/,
      );

      assert.equal(warnings.length, 1, 'one warning, not one per search');
      assert.match(warnings[0]!.msg, /run lexically/);
      assert.match(String(warnings[0]!.fields.reason), /fetch failed/);
    });

    test('without configuration there is no embedder; a URL without a model is refused at start', () => {
      assert.equal(semanticSearch(loadConfig({}), opened.db), undefined);
      assert.throws(() => loadConfig({ HAMLET_EMBEDDINGS_URL: base }), /HAMLET_EMBEDDINGS_MODEL/);
    });

    test('an endpoint that fails is reported by the background fill, and retried', async () => {
      const backfill = new EmbeddingBackfill(
        new PostVectors(opened.db, 'other-model'),
        new OpenAIEmbedder({ url: `${base}/missing`, model: 'other-model' }),
        { idleMs: 60_000 },
      );
      backfill.start();
      for (let i = 0; i < 100 && !backfill.progress().lastError; i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.match(backfill.progress().lastError ?? '', /answered 404/);
      await backfill.stop();
      assert.equal(backfill.progress().running, false);
    });
  });
}
