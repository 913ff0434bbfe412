// The votes contract on SQLite (a file of this run) and on PostgreSQL (a database created for this
// run; skipped without TEST_POSTGRES_URL, a failure under CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineVotesStoreContract } from './store-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-votes-'));
defineVotesStoreContract('sqlite', {
  open: () => openStore(`sqlite:${join(dir, 'hamlet.db')}`),
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});

const setup = await freshPostgresDatabase('votes');
if (setup.ok) {
  defineVotesStoreContract('postgres', { open: () => openStore(setup.url), cleanup: setup.drop });
} else if (setup.fail) {
  test('votes contract (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('votes contract (postgres)', { skip: setup.reason }, () => {});
}
