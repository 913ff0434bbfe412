// `hamlet backup FILE` and `hamlet restore FILE`: a consistent copy of the database DATABASE_URL
// names, taken while servers keep writing, and its restore into an empty database
// (src/store/backup.ts does the work per engine). On PostgreSQL they run pg_dump / pg_restore when
// those are on PATH, and otherwise print the exact command to run. The uploaded files go beside the
// backup, and `--keep N` rotates a series of them (./backup-files.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from './command.ts';
import { loadConfig } from '../config/config.ts';
import {
  backupPostgres,
  backupSqlite,
  hasTool,
  pgDumpArgs,
  pgRestoreArgs,
  restorePostgres,
  restoreSqlite,
  sqlitePath,
} from '../store/backup.ts';
import { openStore } from '../store/open.ts';
import { schemaProblem } from '../store/schema-version.ts';
import { parseCommandArgs } from './with-hamlet.ts';
import { UsageError } from './errors.ts';
import { cliIo, setExitCode } from './io.ts';
import { backupUploads, restoreUploads, rotateBackups, UPLOADS_SUFFIX } from './backup-files.ts';

const BACKUP_USAGE = 'hamlet backup FILE [--keep N]';

export const backupCommand: Command = {
  name: 'backup',
  usage: BACKUP_USAGE,
  summary:
    'write a consistent backup of the database (DATABASE_URL) to FILE while it serves, the uploads to FILE.uploads; --keep N deletes the older backups of the series beyond N',
  async run(args) {
    const { values, positionals } = parseCommandArgs(
      args,
      { keep: { type: 'string' } },
      BACKUP_USAGE,
    );
    if (positionals.length !== 1) throw new UsageError(`Usage: ${BACKUP_USAGE}`);
    const keep = values.keep === undefined ? undefined : Number(values.keep);
    if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1))
      throw new UsageError('--keep: a whole number of backups, at least 1');
    const file = resolve(positionals[0]!);
    if (existsSync(file)) throw new UsageError(`"${file}" exists: give the backup a new name`);
    const { databaseUrl, uploads } = loadConfig(cliIo().env);
    const path = sqlitePath(databaseUrl);
    if (!path && !toolOrHelp('pg_dump', `pg_dump ${pgDumpArgs(file).join(' ')} "$DATABASE_URL"`))
      return;
    const { bytes } = path
      ? await backupSqlite(path, file)
      : await backupPostgres(databaseUrl, file);
    // After the database: every upload record in the backup has its file by then.
    const files = backupUploads(uploads.dir, file);
    console.log(
      `Backed up to ${file} (${bytes} bytes)${files ? `, and ${files} uploaded file(s) to ${file}${UPLOADS_SUFFIX}` : ''}. Restore it with: hamlet restore ${file}`,
    );
    if (keep !== undefined) {
      const gone = rotateBackups(file, keep);
      if (gone.length) console.log(`Deleted ${gone.length} older backup(s): ${gone.join(', ')}`);
    }
  },
};

export const restoreCommand: Command = {
  name: 'restore',
  summary: 'restore a backup FILE into the empty database DATABASE_URL names',
  async run(args) {
    const file = oneFile(args, 'hamlet restore FILE');
    if (!existsSync(file)) throw new UsageError(`There is no backup at "${file}"`);
    const { databaseUrl, uploads } = loadConfig(cliIo().env);
    const path = sqlitePath(databaseUrl);
    if (
      !path &&
      !toolOrHelp(
        'pg_restore',
        `pg_restore ${pgRestoreArgs.join(' ')} --dbname="$DATABASE_URL" ${file}`,
      )
    )
      return;
    if (path) await restoreSqlite(file, path);
    else await restorePostgres(databaseUrl, file);
    const store = await openStore(databaseUrl, { migrate: false, poolSize: 1 });
    try {
      const problem = schemaProblem(await store.schemaState());
      const files = restoreUploads(file, uploads.dir);
      const copied = files ? ` ${files} uploaded file(s) copied to ${uploads.dir}.` : '';
      console.log(`Restored ${file}.${copied}${problem ? ` ${problem}` : ''}`);
    } finally {
      await store.close();
    }
  },
};

function oneFile(args: string[], usage: string): string {
  const { positionals } = parseCommandArgs(args, {}, usage);
  if (positionals.length !== 1) throw new UsageError(`Usage: ${usage}`);
  return resolve(positionals[0]!);
}

/** Whether `tool` is on PATH; if not, says so and prints the command to run (exit code 1). */
function toolOrHelp(tool: string, command: string): boolean {
  if (hasTool(tool)) return true;
  console.error(
    `${tool} is not on PATH. Install PostgreSQL's client tools (the server's version or newer) and run:\n  ${command}`,
  );
  setExitCode(1);
  return false;
}
