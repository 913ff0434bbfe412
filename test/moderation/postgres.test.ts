// The moderation behaviour on a fresh PostgreSQL database (skipped without TEST_POSTGRES_URL,
// failing under CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineModerationServiceContract } from './contract.ts';

const setup = await freshPostgresDatabase('moderation');
if (setup.ok) {
  defineModerationServiceContract('postgres', async () => ({
    env: { DATABASE_URL: setup.url },
    cleanup: setup.drop,
  }));
} else if (setup.fail) {
  test('moderation (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('moderation (postgres)', { skip: setup.reason }, () => {});
}
