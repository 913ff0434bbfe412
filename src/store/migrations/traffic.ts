// Whether a migration may run while the previous release keeps serving, declared by every
// migration file beside its up() and down() (`export const traffic = …`), shown by
// `hamlet migrate --status` and obeyed by `hamlet migrate`.
//
// The rule. A migration is **safe under traffic** when both hold:
//   - the previous release keeps working on the new schema: it only adds tables, nullable columns,
//     columns with a constant default (no table rewrite on PostgreSQL 11+ or SQLite), triggers,
//     or indexes on new or small bounded tables (sessions, queues);
//   - it takes no lock that stops writes for longer than a moment at any size: it rewrites no
//     table that grows with use and builds no plain (non-CONCURRENTLY) index on one.
// It **needs maintenance mode** when either fails: it drops or renames a column or table the
// previous release reads, adds a NOT NULL column without a default, changes a column's type on a
// table that grows with use, backfills or rewrites the rows of such a table (posts, topics, the
// search index, people, the audit log), or builds a plain index on one (writes to that table wait
// for the whole build). Migrations run in one transaction, so such locks are held to its end.
// With maintenance mode on, writes get 503 with Retry-After instead of waiting on those locks or
// reaching a schema the previous release does not expect.

export type MigrationTraffic = 'safe under traffic' | 'needs maintenance mode';

export type TrafficFlag = {
  readonly traffic: MigrationTraffic;
  /** Why, in a few words an operator can check against the migration. */
  readonly why: string;
};

export function safeUnderTraffic(why: string): TrafficFlag {
  return { traffic: 'safe under traffic', why };
}

export function needsMaintenance(why: string): TrafficFlag {
  return { traffic: 'needs maintenance mode', why };
}

export function needsMaintenanceMode(flag: TrafficFlag): boolean {
  return flag.traffic === 'needs maintenance mode';
}
