// Readiness's write probe: the database takes a write now, committed (one heartbeat row upserted),
// not only answers `select 1`. A read-only SQLite file, a full disk, a read-only PostgreSQL (a
// standby, default_transaction_read_only) all fail it.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../repositories.ts';
import { NO_LOCK_WAIT } from '../sqlite-lock.ts';
import type { Database } from '../schema.ts';

const upsert = (now: number, prefix = '') =>
  sql`${sql.raw(prefix)}insert into readiness_heartbeat (id, probed_at) values (1, ${now})
      on conflict (id) do update set probed_at = excluded.probed_at`;

export async function probeWrite(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await upsert(Date.now()).execute(db);
    return;
  }
  // SQLite runs statements on the event loop: waiting out another process's write lock here (the
  // busy timeout) would stall every request. The probe does not wait for the lock; a lock held by
  // another writer proves the file takes writes. The connection is held throughout, so no other
  // statement runs with the probe's busy timeout.
  await db.connection().execute(async (conn) => {
    const before = await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn);
    const timeout = Number(before.rows[0]?.timeout ?? 0);
    await sql.raw('pragma busy_timeout = 0').execute(conn);
    try {
      await upsert(Date.now(), NO_LOCK_WAIT).execute(conn);
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    } finally {
      await sql.raw(`pragma busy_timeout = ${Math.max(0, Math.trunc(timeout))}`).execute(conn);
    }
  });
}
