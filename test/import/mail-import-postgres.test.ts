// The importer on PostgreSQL gives exactly what it gives on SQLite (same threads, dates, counts).
// Skipped without TEST_POSTGRES_URL, failing under CI like the store contract.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.ts';
import { openStore } from '../../src/store/open.ts';
import { CommunityService } from '../../src/domain/communities.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { importMail } from '../../src/import/mail/importer.ts';
import { hamCorpusDirs } from '../../src/import/ham-corpus.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { snapshot } from './snapshot.ts';

const setup = await freshPostgresDatabase('import');
const ham = hamCorpusDirs();

if (!setup.ok) {
  if (setup.fail) test('mail import (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
  else test('mail import (postgres)', { skip: setup.reason }, () => {});
} else {
  test.after(() => setup.drop());
  test(
    'mail import (postgres) matches SQLite and is idempotent',
    { skip: ham ? false : 'ham corpus not installed' },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hamlet-import-pg-'));
      const engines = [setup.url, `sqlite:${join(dir, 'ref.db')}`];
      const snaps = [];
      try {
        for (const url of engines) {
          const config = loadConfig({ DATABASE_URL: url });
          const store = await openStore(url);
          try {
            await new CommunityService(store).create(systemActor(), {
              slug: 'lists',
              name: 'Lists',
            });
            const paths = [ham![2]!]; // hard-ham-1
            const first = await importMail(
              store,
              { config: config },
              {
                communitySlug: 'lists',
                paths,
                batchSize: 50,
              },
            );
            assert.equal(first.postsCreated, 250);
            const second = await importMail(
              store,
              { config: config },
              {
                communitySlug: 'lists',
                paths,
              },
            );
            assert.deepEqual([second.postsCreated, second.alreadyImported], [0, 250]);
            snaps.push(await snapshot(store, 'lists'));
          } finally {
            await store.close();
          }
        }
        assert.deepEqual(snaps[0], snaps[1]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}
