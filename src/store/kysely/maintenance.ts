// Maintenance mode's one row (migration 0114_maintenance): present while writes are refused.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { MaintenanceRepository, MaintenanceState } from '../repositories.ts';

export class KyselyMaintenance implements MaintenanceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(): Promise<MaintenanceState | undefined> {
    const r = await sql<{ message: string; since_ms: string | number }>`
      select message, since_ms from maintenance where id = 1`.execute(this.db);
    const row = r.rows[0];
    return row ? { message: row.message, since: Number(row.since_ms) } : undefined;
  }

  async set(message: string | null, now = Date.now()): Promise<void> {
    if (message === null) {
      await sql`delete from maintenance where id = 1`.execute(this.db);
      return;
    }
    await sql`insert into maintenance (id, message, since_ms) values (1, ${message}, ${now})
      on conflict (id) do update set message = excluded.message`.execute(this.db);
  }
}
