// Pseudo-relevance feedback on both engines (./feedback-contract.ts): an SQLite file always, a real
// PostgreSQL when TEST_POSTGRES_URL is set (scripts/with-postgres.sh; under CI its absence fails).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/open.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { defineFeedbackContract } from './feedback-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-feedback-'));
const url = `sqlite:${join(dir, 'feedback.db')}`;
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
defineFeedbackContract('sqlite', { url, open: () => openDatabase(url) });

const pg = await freshPostgresDatabase('search_feedback');
if (pg.ok)
  defineFeedbackContract('postgres', {
    url: pg.url,
    open: () => openDatabase(pg.url),
    cleanup: pg.drop,
  });
else if (pg.fail) test('search feedback (postgres)', () => assert.fail(`CI=true but ${pg.reason}`));
