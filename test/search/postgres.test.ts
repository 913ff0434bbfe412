// Search on a real PostgreSQL (tsvector + GIN), in a database created for this run and dropped
// after. Without TEST_POSTGRES_URL it reports itself skipped, except under CI where that fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/store/open.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineSearchContract } from './contract.ts';

const setup = await freshPostgresDatabase('search');
if (setup.ok) {
  defineSearchContract('postgres', { url: setup.url, open: () => openDatabase(setup.url), cleanup: setup.drop });
} else if (setup.fail) {
  test('search (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('search (postgres)', { skip: setup.reason }, () => {});
}
