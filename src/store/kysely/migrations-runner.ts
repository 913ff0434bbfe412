// The schema's version: which migrations the database holds, and moving it up (every pending one,
// or up to a named one) or down (to a named one). A migration is named by its number and slug;
// "at <name>" means every known migration up to and including <name> (by name) is applied and none
// after it. Going down reverts the later ones newest name first, each with its row in
// hamlet_migrations, in one transaction under the lock `migrate` takes, so that instances starting
// meanwhile wait for it instead of migrating half-way.
import { Migrator, sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { Dialect } from '../repositories.ts';
import { migrationProvider, migrations } from '../migrations/index.ts';
import { SchemaMismatchError, type SchemaState } from '../schema-version.ts';

const TABLE = 'hamlet_migrations';
/** The advisory lock Kysely's migrator takes on PostgreSQL (its PostgresAdapter's LOCK_ID). */
const PG_MIGRATION_LOCK = sql.lit(BigInt('3853314791062309107'));

function migrator(db: Kysely<Database>, dialect: Dialect): Migrator {
  return new Migrator({
    db,
    provider: migrationProvider(dialect),
    migrationTableName: TABLE,
    migrationLockTableName: 'hamlet_migrations_lock',
    // Features land in parallel with their own number ranges: a database may already hold a
    // later-numbered migration when an earlier-numbered one arrives. Each migration stands alone.
    allowUnorderedMigrations: true,
  });
}

export async function schemaState(db: Kysely<Database>, dialect: Dialect): Promise<SchemaState> {
  const known = Object.keys(migrations(dialect)).sort();
  const applied = await appliedNames(db);
  return {
    applied: known.filter((n) => applied.has(n)),
    pending: known.filter((n) => !applied.has(n)),
    unknown: [...applied].filter((n) => !known.includes(n)).sort(),
  };
}

/** Applies every pending migration (or those up to `target`); returns the names applied now. */
export async function migrateUp(
  db: Kysely<Database>,
  dialect: Dialect,
  target?: string,
): Promise<string[]> {
  const state = await schemaState(db, dialect);
  if (state.unknown.length) throw new SchemaMismatchError(state);
  const m = migrator(db, dialect);
  const { error, results } = target ? await m.migrateTo(target) : await m.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed ?? ''} failed: ${reason}`.replace('  ', ' '), {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Brings the schema to `target`: applies the pending migrations up to it, or reverts the applied
 * ones after it. Returns what it did.
 */
export async function migrateTo(
  db: Kysely<Database>,
  dialect: Dialect,
  target: string,
): Promise<{ applied: string[]; reverted: string[] }> {
  const all = migrations(dialect);
  const names = Object.keys(all).sort();
  if (!all[target])
    throw new Error(`There is no migration "${target}". The migrations are: ${names.join(', ')}`);
  const state = await schemaState(db, dialect);
  if (state.unknown.length) throw new SchemaMismatchError(state);
  const later = state.applied.filter((n) => n > target).reverse();
  const reverted: string[] = [];
  if (later.length) {
    await db.transaction().execute(async (tx) => {
      if (dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(tx);
      // Read again under the lock: another process may have moved the schema meanwhile.
      const now = await appliedNames(tx);
      for (const name of later.filter((n) => now.has(n))) {
        const down = all[name]?.down;
        if (!down) throw new Error(`Migration ${name} cannot be reverted (it has no down step)`);
        try {
          await down(tx);
        } catch (err) {
          const reason = err instanceof Error ? err.message : String(err);
          throw new Error(`Reverting migration ${name} failed: ${reason}`, { cause: err });
        }
        await sql`delete from ${sql.table(TABLE)} where name = ${name}`.execute(tx);
        reverted.push(name);
      }
    });
  }
  const applied = state.pending.some((n) => n <= target)
    ? await migrateUp(db, dialect, target)
    : [];
  return { applied, reverted };
}

async function appliedNames(db: Kysely<Database>): Promise<Set<string>> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(TABLE)}`.execute(db);
    return new Set(rows.map((r) => r.name));
  } catch (err) {
    // A database no Hamlet has migrated yet has no table to read.
    if (/no such table|does not exist/i.test(err instanceof Error ? err.message : ''))
      return new Set();
    throw err;
  }
}
