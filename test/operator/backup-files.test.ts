// `hamlet backup` takes the uploaded files with the database (FILE.uploads) and `--keep N` keeps
// the newest N backups of a series, each with its files; `hamlet restore` puts the files back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';
import { sqliteFromTemplate } from '../helpers/template.ts';

test('backups include the uploads, rotate with --keep, and restore them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-backup-files-'));
  try {
    const db = join(dir, 'hamlet.db');
    await sqliteFromTemplate(db, 'migrated');
    const uploads = join(dir, 'uploads');
    mkdirSync(join(uploads, 'community-1'), { recursive: true });
    writeFileSync(join(uploads, 'community-1', 'upload-1'), 'the bytes of an upload');
    const env = { DATABASE_URL: `sqlite:${db}`, HAMLET_UPLOADS_DIR: uploads };
    const backups = join(dir, 'backups');
    mkdirSync(backups);
    for (const day of ['01', '02', '03']) {
      const r = await runCli(
        ['backup', join(backups, `hamlet-2026-12-${day}.backup`), '--keep', '2'],
        env,
      );
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /and 1 uploaded file\(s\) to .*\.backup\.uploads/);
      await new Promise((resolve) => setTimeout(resolve, 20)); // distinct modification times
    }
    assert.equal(existsSync(join(backups, 'hamlet-2026-12-01.backup')), false, 'rotated away');
    assert.equal(existsSync(join(backups, 'hamlet-2026-12-01.backup.uploads')), false);
    assert.ok(existsSync(join(backups, 'hamlet-2026-12-02.backup')));
    assert.ok(existsSync(join(backups, 'hamlet-2026-12-03.backup.uploads')));

    const restoredUploads = join(dir, 'restored-uploads');
    const r = await runCli(['restore', join(backups, 'hamlet-2026-12-03.backup')], {
      DATABASE_URL: `sqlite:${join(dir, 'restored.db')}`,
      HAMLET_UPLOADS_DIR: restoredUploads,
    });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /1 uploaded file\(s\) copied/);
    assert.equal(
      readFileSync(join(restoredUploads, 'community-1', 'upload-1'), 'utf8'),
      'the bytes of an upload',
    );
    const bad = await runCli(['backup', join(backups, 'x.backup'), '--keep', '0'], env);
    assert.equal(bad.code, 2, bad.err);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
