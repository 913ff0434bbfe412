// The moderation behaviour on a fresh PostgreSQL database (skipped without TEST_POSTGRES_URL,
// failing under CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineModerationBehaviour } from './behaviour.ts';

const setup = await freshPostgresDatabase('moderation');
if (setup.ok) {
  defineModerationBehaviour('postgres', async () => ({
    env: { DATABASE_URL: setup.url },
    cleanup: setup.drop,
  }));
} else if (setup.fail) {
  test('moderation (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('moderation (postgres)', { skip: setup.reason }, () => {});
}
