// Search on a real PostgreSQL (tsvector + GIN), in a database created for this run and dropped
// after. Without TEST_POSTGRES_URL it reports itself skipped, except under CI where that fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/store/open.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineSearchContract } from './contract.ts';
import { defineEmbeddingsContract } from './embeddings-contract.ts';
import { defineModerationSearchContract } from './moderation-contract.ts';
import { defineScopeContract } from './scope-contract.ts';

const setup = await freshPostgresDatabase('search');
const embeddings = setup.ok ? await freshPostgresDatabase('embeddings') : setup;
const moderation = setup.ok ? await freshPostgresDatabase('moderation_search') : setup;
const scope = setup.ok ? await freshPostgresDatabase('search_scope') : setup;
if (scope.ok)
  defineScopeContract('postgres', {
    url: scope.url,
    open: () => openDatabase(scope.url),
    cleanup: scope.drop,
  });
if (moderation.ok)
  defineModerationSearchContract('postgres', {
    url: moderation.url,
    open: () => openDatabase(moderation.url),
    cleanup: moderation.drop,
  });
if (setup.ok && embeddings.ok) {
  defineSearchContract('postgres', {
    url: setup.url,
    open: () => openDatabase(setup.url),
    cleanup: setup.drop,
  });
  defineEmbeddingsContract('postgres', {
    url: embeddings.url,
    open: () => openDatabase(embeddings.url),
    cleanup: embeddings.drop,
  });
} else if (!embeddings.ok && embeddings.fail) {
  test('search (postgres)', () => assert.fail(`CI=true but ${embeddings.reason}`));
} else if (!embeddings.ok) {
  test('search (postgres)', { skip: embeddings.reason }, () => {});
}
