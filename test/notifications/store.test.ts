// The notifications store contract on SQLite (a file of this run) and on PostgreSQL (a database
// created for this run; skipped without TEST_POSTGRES_URL, a failure under CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineNotificationStoreContract } from './store-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-notify-'));
defineNotificationStoreContract('sqlite', {
  open: () => openStore(`sqlite:${join(dir, 'hamlet.db')}`),
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});

const setup = await freshPostgresDatabase('notifications');
if (setup.ok) {
  defineNotificationStoreContract('postgres', {
    open: () => openStore(setup.url),
    cleanup: setup.drop,
  });
} else if (setup.fail) {
  test('store contract: notifications (postgres)', () =>
    assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('store contract: notifications (postgres)', { skip: setup.reason }, () => {});
}
