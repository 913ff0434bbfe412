// Token buckets in PostgreSQL, shared by every instance over the database: one atomic statement per
// take refills the bucket by the time elapsed (the database's clock, the same for every instance)
// and takes the tokens only if there are enough. Rows of idle buckets (full again once their window
// has passed, so carrying no state) are swept now and then.
import { sql, type Kysely } from 'kysely';

/** Whether `cost` tokens were taken, and if not, how long until they would be there. */
export type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterMs: number };

const SWEEP_EVERY_MS = 60_000;
/** Longer than any bucket's window (the longest, sign-ups, is an hour): older rows are full. */
const IDLE_ROWS = '2 hours';

export class PostgresRateBuckets {
  private lastSweep = Date.now();

  constructor(private readonly db: Kysely<any>) {}

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

  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    void sql`delete from rate_limit_buckets where updated_at < clock_timestamp() - ${IDLE_ROWS}::interval`
      .execute(this.db)
      .catch(() => undefined);
  }
}
