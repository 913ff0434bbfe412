// What a backup takes beside the database: the uploaded files (HAMLET_UPLOADS_DIR), copied into
// `<FILE>.uploads` after the database (so every record the backup holds has its file: a file is
// written whole before its record, and never changed), and the rotation of `--keep N`: of the
// backups in FILE's folder named like FILE but for its digits (hamlet-2026-12-01.backup and
// hamlet-2026-12-02.backup are one series), the newest N are kept, each with its uploads.
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const UPLOADS_SUFFIX = '.uploads';

/** Copies the uploads folder beside the backup; how many files it held (0: none or no folder). */
export function backupUploads(uploadsDir: string, file: string): number {
  if (!existsSync(uploadsDir)) return 0;
  cpSync(uploadsDir, `${file}${UPLOADS_SUFFIX}`, { recursive: true, preserveTimestamps: true });
  return countFiles(`${file}${UPLOADS_SUFFIX}`);
}

/** Copies a backup's uploads into the uploads folder, keeping files already there; how many. */
export function restoreUploads(file: string, uploadsDir: string): number {
  const from = `${file}${UPLOADS_SUFFIX}`;
  if (!existsSync(from)) return 0;
  cpSync(from, uploadsDir, { recursive: true, force: false, preserveTimestamps: true });
  return countFiles(from);
}

/** Deletes the older backups of FILE's series beyond the newest `keep`; the names deleted. */
export function rotateBackups(file: string, keep: number): string[] {
  const folder = dirname(file);
  const series = seriesOf(basename(file));
  const backups = readdirSync(folder)
    .filter((name) => series.test(name))
    .map((name) => ({ name, at: statSync(join(folder, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at || b.name.localeCompare(a.name));
  const gone = backups.slice(keep).map((b) => b.name);
  for (const name of gone) {
    rmSync(join(folder, name), { force: true });
    rmSync(join(folder, `${name}${UPLOADS_SUFFIX}`), { recursive: true, force: true });
  }
  return gone;
}

/** FILE's name with each run of digits standing for any run of digits. */
function seriesOf(name: string): RegExp {
  const parts = name.split(/\d+/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('\\d+')}$`);
}

function countFiles(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    n += entry.isDirectory() ? countFiles(join(dir, entry.name)) : 1;
  return n;
}
