// Token buckets in PostgreSQL, shared by every instance over the database: one atomic statement per
// take refills the bucket by the time elapsed (the database's clock, the same for every instance)
// and takes the tokens only if there are enough. `settle` charges what an instance counted for many
// buckets at once, in one statement, whatever each holds (counted-buckets.ts). Rows of idle buckets
// (full again once their window has passed, so carrying no state) are swept now and then.
import { sql } from 'kysely';
import type { AnySchemaDb } from '../any-schema.ts';

/** Whether `cost` tokens were taken, and if not, how long until they would be there. */
export type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterMs: number };

/** Tokens an instance already spent from a bucket (negative: gave back), to be charged there. */
export type Spent = { bucket: string; capacity: number; windowMs: number; spent: number };

const SWEEP_EVERY_MS = 60_000;
/** Longer than any bucket's window (the longest, sign-ups, is an hour): older rows are full. */
const IDLE_ROWS = '2 hours';

export class PostgresRateBuckets {
  private lastSweep = Date.now();

  constructor(private readonly db: AnySchemaDb) {}

  /** Takes `cost` tokens from `bucket`, which holds `capacity` and refills that many per `windowMs`. */
  async take(bucket: string, capacity: number, cost = 1, windowMs = 60_000): Promise<TakeResult> {
    this.sweepNowAndThen();
    const perSecond = capacity / (windowMs / 1000);
    const refilled = sql`least(${capacity}::float8, b.tokens + extract(epoch from clock_timestamp() - b.updated_at) * ${perSecond}::float8)`;
    if (cost <= capacity) {
      const taken = await sql<{ tokens: number }>`
        insert into rate_limit_buckets as b (bucket, tokens, updated_at)
        values (${bucket}, ${capacity - cost}::float8, clock_timestamp())
        on conflict (bucket) do update set tokens = ${refilled} - ${cost}::float8, updated_at = clock_timestamp()
          where ${refilled} >= ${cost}::float8
        returning tokens`.execute(this.db);
      const row = taken.rows[0];
      if (row) return { ok: true, remaining: Math.floor(Number(row.tokens)) };
    }
    // Refused: more than a full bucket can never be paid at once, so wait for a full one.
    const now = await sql<{
      tokens: number;
    }>`select ${refilled} as tokens from rate_limit_buckets b where bucket = ${bucket}`.execute(
      this.db,
    );
    const tokens = Number(now.rows[0]?.tokens ?? capacity);
    return {
      ok: false,
      retryAfterMs: Math.max(
        1,
        Math.ceil(((Math.min(cost, capacity) - tokens) / perSecond) * 1000),
      ),
    };
  }

  /**
   * Charges each bucket what was spent from it (it may go below zero: a debt refilled like any
   * level, down to minus its capacity at most) and answers the levels after, by bucket. A bucket
   * another instance created meanwhile is left out of the answer: charge it again later. Rows are
   * locked in the order of their names, so two instances settling together never deadlock.
   */
  async settle(entries: Spent[]): Promise<Map<string, number>> {
    this.sweepNowAndThen();
    const levels = new Map<string, number>();
    if (!entries.length) return levels;
    const sorted = [...entries].sort((a, b) => (a.bucket < b.bucket ? -1 : 1));
    const names = sorted.map((e) => e.bucket);
    const capacities = sorted.map((e) => e.capacity);
    const perSecond = sorted.map((e) => e.capacity / (e.windowMs / 1000));
    const spent = sorted.map((e) => e.spent);
    const level = (tokens: string) =>
      sql`greatest(-i.capacity, least(i.capacity, ${sql.raw(tokens)}) - i.spent)`;
    const refilled =
      'l.tokens + extract(epoch from clock_timestamp() - l.updated_at) * i.per_second';
    const rows = await sql<{ bucket: string; tokens: number }>`
      with input as (
        select * from unnest(${names}::text[], ${capacities}::float8[], ${perSecond}::float8[],
          ${spent}::float8[]) as t(bucket, capacity, per_second, spent)
      ), locked as (
        select b.bucket, b.tokens, b.updated_at from rate_limit_buckets b
        where b.bucket = any(${names}::text[]) order by b.bucket for update
      ), updated as (
        update rate_limit_buckets b
        set tokens = ${level(refilled)},
          updated_at = clock_timestamp()
        from locked l join input i on i.bucket = l.bucket
        where b.bucket = l.bucket
        returning b.bucket, b.tokens
      ), inserted as (
        insert into rate_limit_buckets as b (bucket, tokens, updated_at)
        select i.bucket, ${level('i.capacity')}, clock_timestamp() from input i
        where not exists (select 1 from locked l where l.bucket = i.bucket)
        on conflict (bucket) do nothing
        returning b.bucket, b.tokens
      )
      select bucket, tokens from updated union all select bucket, tokens from inserted`.execute(
      this.db,
    );
    for (const row of rows.rows) levels.set(row.bucket, Number(row.tokens));
    return levels;
  }

  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    void sql`delete from rate_limit_buckets where updated_at < clock_timestamp() - ${IDLE_ROWS}::interval`
      .execute(this.db)
      .catch(() => undefined);
  }
}
