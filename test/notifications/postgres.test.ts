// The notification behaviour on a fresh PostgreSQL database (skipped without TEST_POSTGRES_URL,
// failing under CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineNotificationsContract } from './contract.ts';

const setup = await freshPostgresDatabase('notify');
if (setup.ok) {
  defineNotificationsContract('postgres', async () => ({
    env: { DATABASE_URL: setup.url },
    cleanup: setup.drop,
  }));
} else if (setup.fail) {
  test('notifications (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('notifications (postgres)', { skip: setup.reason }, () => {});
}
