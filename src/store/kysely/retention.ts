// Bounded batch deletes for retention (../retention.ts): the keys of at most `limit` old rows are
// chosen first, then those rows deleted, so that one batch holds its locks briefly however large
// the backlog. Row-value IN works on both engines (SQLite 3.15+).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { RetentionKind, RetentionRepository } from '../retention.ts';

type Target = { table: string; key: string[]; where: (before: string) => ReturnType<typeof sql> };

const TARGETS: Record<RetentionKind, Target> = {
  idempotency: {
    table: 'idempotency_records',
    key: ['community_id', 'actor', 'idempotency_key'],
    where: (before) => sql`created_at < ${before}`,
  },
  webSessions: {
    table: 'web_sessions',
    key: ['id'],
    where: (before) => sql`(expires_at < ${before} or revoked_at is not null)`,
  },
  oauthCodes: {
    table: 'oauth_codes',
    key: ['code_hash'],
    where: (before) => sql`expires_at < ${before}`,
  },
  audit: { table: 'audit_log', key: ['id'], where: (before) => sql`occurred_at < ${before}` },
};

export class KyselyRetention implements RetentionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async deleteBatch(kind: RetentionKind, before: string, limit: number): Promise<number> {
    const { table, key, where } = TARGETS[kind];
    const columns = sql.join(key.map((k) => sql.ref(k)));
    const result = await sql`
      delete from ${sql.table(table)}
      where (${columns}) in (
        select ${columns} from ${sql.table(table)} where ${where(before)} limit ${limit}
      )`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }
}
