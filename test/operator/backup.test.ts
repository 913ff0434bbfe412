// `hamlet backup` taken while a server takes writes, restored with `hamlet restore` into an empty
// database, on both engines: the restore holds one consistent moment (every topic with its first
// post, the latest topic it holds findable by search), serves search and takes a write; restoring
// into a database that is not empty is refused. The backup file, a restored SQLite file and a new
// SQLite database are the owner's alone (mode 0600), whatever the umask: they hold every secret.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config/config.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { openHamlet } from '../../src/main.ts';
import { openDatabase } from '../../src/store/open.ts';
import { startTestHamlet } from '../app/helpers.ts';
import { runCli, spawnCli } from '../helpers/cli.ts';
import { waitFor } from '../helpers/wait.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { postgresFromTemplate } from '../helpers/template.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const modeOf = (path: string) => statSync(path).mode & 0o777;

async function backupUnderWrites(source: string, target: string, dir: string): Promise<void> {
  const h = await startTestHamlet({ DATABASE_URL: source }, { demo: true, keepDatabase: true });
  const file = join(dir, 'hamlet.backup');
  let written = 0;
  let writing = true;
  let atStart = -1;
  let atEnd = -1;
  try {
    const acme = (await h.store.communities.getBySlug('acme'))!;
    const writer = (async () => {
      while (writing) {
        await writeApplied(h.services.writes, system, acme, 'topic.create', {
          category: 'general',
          title: `Written during the backup, number ${written + 1}`,
          body: `Marker quokka${written + 1} so that search can find exactly this one.`,
        });
        written++;
        // As requests would: SQLite's driver is synchronous, so give timers and children a turn.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    let failed: Error | undefined;
    writer.catch((err: unknown) => (failed = err as Error));
    await waitFor(
      () => {
        if (failed) throw failed;
        return written >= 3;
      },
      { timeoutMs: 30_000, message: 'the first writes' },
    );
    atStart = written;
    const backup = await runCli(['backup', file], { DATABASE_URL: source });
    atEnd = written;
    writing = false;
    await writer;
    assert.equal(backup.code, 0, backup.err);
    assert.match(backup.out, /Backed up to .*hamlet\.backup \(\d+ bytes\)/);
    assert.equal(modeOf(file), 0o600, 'the backup is readable by its owner only');
    assert.ok(atEnd > atStart, `the server wrote while the backup ran (${atStart} → ${atEnd})`);
  } finally {
    writing = false;
    await h.stop();
  }

  const restored = await runCli(['restore', file], { DATABASE_URL: target });
  assert.equal(restored.code, 0, restored.err);
  if (target.startsWith('sqlite:')) assert.equal(modeOf(target.slice(7)), 0o600, 'restored file');
  assert.match(restored.out, /Restored /);
  const again = await runCli(['restore', file], { DATABASE_URL: target });
  assert.equal(again.code, 1);
  assert.match(again.err, /is not empty: restore only into an empty database/);

  const config = loadConfig({ DATABASE_URL: target, LOG_LEVEL: 'silent' });
  const { store, services, close } = await openHamlet(config, {
    migrate: false,
    requireCurrentSchema: true,
    poolSize: 2,
  });
  try {
    const acme = (await store.communities.getBySlug('acme'))!;
    const raw = await openDatabase(target, { migrate: false, poolSize: 1 });
    const { rows } = await sql<{ n: number | string; orphans: number | string }>`
      select count(*) as n,
             sum(case when not exists (select 1 from posts p where p.topic_id = t.id and p.position = 1)
                 then 1 else 0 end) as orphans
      from topics t where t.title like 'Written during the backup%'`.execute(raw.db);
    await raw.store.close();
    const held = Number(rows[0]!.n);
    assert.ok(
      held >= atStart && held <= atEnd + 1,
      `${held} topics between ${atStart} and ${atEnd}`,
    );
    assert.equal(Number(rows[0]!.orphans), 0, 'every topic has its first post');
    const latest = await services.search.search([acme], `quokka${held}`);
    assert.equal(latest.results[0]?.title, `Written during the backup, number ${held}`);
    assert.ok((await services.search.search([acme], 'webhook signature')).results.length > 0);
    const after = await writeApplied(services.writes, system, acme, 'topic.create', {
      category: 'general',
      title: 'Written after the restore',
      body: 'The restored database takes writes.',
    });
    assert.ok(after.topic.id);
  } finally {
    await close();
  }
}

test('backup during writes, restore, serve (sqlite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-backup-'));
  try {
    await backupUnderWrites(
      `sqlite:${join(dir, 'live.db')}`,
      `sqlite:${join(dir, 'restored.db')}`,
      dir,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a new SQLite database and its WAL are created mode 0600 under umask 022', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-mode-'));
  const before = process.umask(0o022);
  try {
    const path = join(dir, 'fresh.db');
    const opened = await openDatabase(`sqlite:${path}`, { poolSize: 1 });
    await sql`select count(*) from communities`.execute(opened.db);
    assert.equal(modeOf(path), 0o600);
    assert.equal(modeOf(`${path}-wal`), 0o600);
    await opened.store.close();
  } finally {
    process.umask(before);
    rmSync(dir, { recursive: true, force: true });
  }
});

const source = await postgresFromTemplate('backup', 'demo');
const target = await freshPostgresDatabase('restored');
test(
  'backup during writes, restore, serve (postgres)',
  { skip: !source.ok && !source.fail && source.reason },
  async () => {
    if (!source.ok || !target.ok) return assert.fail(source.ok ? 'no target' : source.reason);
    const dir = mkdtempSync(join(tmpdir(), 'hamlet-backup-'));
    try {
      await backupUnderWrites(source.url, target.url, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await source.drop();
      await target.drop();
    }
  },
);

test('without pg_dump on PATH, backup prints the exact command (and no password)', async () => {
  const env = { DATABASE_URL: 'postgres://hamlet:s3cret@127.0.0.1:1/hamlet', PATH: '/nonexistent' };
  // A process of its own: which tools there are is what its PATH finds.
  const r = await spawnCli(['backup', join(tmpdir(), 'never-written.backup')], env);
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /pg_dump is not on PATH.*\n {2}pg_dump --format=custom --no-owner --file=\S+never-written\.backup "\$DATABASE_URL"/,
  );
  assert.doesNotMatch(r.err + r.out, /s3cret/);
});
