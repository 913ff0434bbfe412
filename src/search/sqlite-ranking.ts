// Hamlet's SQLite ranking functions (hamlet_bm25, hamlet_doclen: ./sqlite-ranking-source.ts), built
// once per machine with the C compiler and loaded into the search's connections. The library is
// kept beside the SQLite driver (node_modules/.cache/hamlet/), named by a hash of its source and
// of the SQLite headers it was built against, so a changed source is never answered by an old build.
// Where it cannot be built (no C compiler) or loaded, search ranks with FTS5's own bm25, whose
// statistics are the whole table's: searches still work, and the reason is reported once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqliteConnectionOf } from '../store/sqlite-file.ts';
import { RANKING_C_SOURCE, RANKING_ENTRY_POINT } from './sqlite-ranking-source.ts';
import type { AnySchemaDb } from '../store/any-schema.ts';

/** The built library, or why there is none. */
export type RankingLibrary = { path: string } | { error: string };

/** How a connection ranks: Hamlet's function with each search's statistics, or FTS5's bm25. */
export type SqliteRanking = { kind: 'hamlet'; library: string } | { kind: 'fts5'; reason: string };

const COMPILE_TIMEOUT_MS = 60_000;

let library: RankingLibrary | undefined;

/** The directory of better-sqlite3's package (its deps/sqlite3 holds the headers). */
function driverDirectory(): string {
  return dirname(dirname(fileURLToPath(import.meta.resolve('better-sqlite3'))));
}

/** The built library's path, compiled first when absent (at most once per process). */
export function rankingLibrary(): RankingLibrary {
  if (library) return library;
  try {
    const driver = driverDirectory();
    const headers = join(driver, 'deps', 'sqlite3');
    const hash = createHash('sha256')
      .update(RANKING_C_SOURCE)
      .update(readFileSync(join(headers, 'sqlite3.h')))
      .update(`${process.platform}-${process.arch}`)
      .digest('hex')
      .slice(0, 16);
    const dir = join(dirname(driver), '.cache', 'hamlet');
    const path = join(dir, `ranking-${hash}.${process.platform === 'darwin' ? 'dylib' : 'so'}`);
    if (!existsSync(path)) compile(dir, path, headers);
    library = { path };
  } catch (err) {
    library = { error: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
  return library;
}

/** Compiles the source into `path` (through a file of its own, renamed: concurrent builds are safe). */
function compile(dir: string, path: string, headers: string): void {
  mkdirSync(dir, { recursive: true });
  const part = `${path}.${process.pid}.${Date.now()}`;
  const source = `${part}.c`;
  writeFileSync(source, RANKING_C_SOURCE);
  try {
    execFileSync('cc', ['-O2', '-shared', '-fPIC', '-I', headers, '-o', part, source], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: COMPILE_TIMEOUT_MS,
    });
    renameSync(part, path);
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `the C compiler (cc) could not build Hamlet's SQLite ranking function${stderr ? `: ${stderr.split('\n')[0]}` : ''}`,
    );
  } finally {
    rmSync(source, { force: true });
    rmSync(part, { force: true });
  }
}

/**
 * Loads the ranking functions into the SQLite connection behind `db`. `prefer: 'fts5'` keeps
 * FTS5's bm25 (tests of that fallback).
 */
export function loadRanking(db: AnySchemaDb, prefer: 'hamlet' | 'fts5' = 'hamlet'): SqliteRanking {
  if (prefer === 'fts5') return { kind: 'fts5', reason: 'asked for' };
  const connection = sqliteConnectionOf(db);
  if (!connection) return { kind: 'fts5', reason: 'the connection was not opened by Hamlet' };
  const built = rankingLibrary();
  if ('error' in built) return { kind: 'fts5', reason: built.error };
  try {
    connection.loadExtension(built.path, RANKING_ENTRY_POINT);
    return { kind: 'hamlet', library: built.path };
  } catch (err) {
    return { kind: 'fts5', reason: `the ranking library did not load: ${String(err)}` };
  }
}
