// The OAuth suite on a fresh PostgreSQL database (skipped without TEST_POSTGRES_URL, failing under CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/store/open.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineOAuthContract } from './contract.ts';

const setup = await freshPostgresDatabase('oauth');
if (setup.ok) {
  defineOAuthContract('postgres', { open: () => openDatabase(setup.url), cleanup: setup.drop });
} else if (setup.fail) {
  test('OAuth (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('OAuth (postgres)', { skip: setup.reason }, () => {});
}
