// The REST contract on a fresh PostgreSQL database (skipped without TEST_POSTGRES_URL, failing under CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineRestContract } from './contract.ts';

const setup = await freshPostgresDatabase('rest');
if (setup.ok) {
  defineRestContract('postgres', async () => ({
    env: { DATABASE_URL: setup.url },
    cleanup: setup.drop,
  }));
} else if (setup.fail) {
  test('REST contract (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('REST contract (postgres)', { skip: setup.reason }, () => {});
}
