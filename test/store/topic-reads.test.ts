// The topic reads contract (./topic-reads-contract.ts) on SQLite (a file of this run) and on
// PostgreSQL (a database created for this run; skipped without TEST_POSTGRES_URL, a failure under CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.ts';
import { freshPostgresDatabase } from './pg-database.ts';
import { defineTopicReadsContract } from './topic-reads-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-topic-reads-'));
defineTopicReadsContract('sqlite', {
  open: () => openStore(`sqlite:${join(dir, 'hamlet.db')}`),
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});

const pg = await freshPostgresDatabase('topic_reads');
if (pg.ok)
  defineTopicReadsContract('postgres', { open: () => openStore(pg.url), cleanup: pg.drop });
else if (pg.fail) test('topic reads contract (postgres)', () => assert.fail(pg.reason));
else test('topic reads contract (postgres)', { skip: pg.reason }, () => {});
