// The mail outbox suite on a fresh PostgreSQL database (skipped without TEST_POSTGRES_URL, failing under CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/store/open.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineOutboxContract } from './outbox-contract.ts';

const setup = await freshPostgresDatabase('mail');
if (setup.ok) {
  defineOutboxContract('postgres', { open: () => openDatabase(setup.url), cleanup: setup.drop });
} else if (setup.fail) {
  test('mail outbox (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('mail outbox (postgres)', { skip: setup.reason }, () => {});
}
