// Token buckets in PostgreSQL, shared by every instance over the database: one atomic statement per
// take refills the bucket by the time elapsed (the database's clock, the same for every instance)
// and takes the tokens only if there are enough. Rows of idle buckets (full again after a minute,
// so carrying no state) are swept now and then.
import { sql, type Kysely } from 'kysely';

/** Whether `cost` tokens were taken, and if not, how long until they would be there. */
export type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterMs: number };

const SWEEP_EVERY_MS = 60_000;

export class PostgresRateBuckets {
  private lastSweep = Date.now();

  constructor(private readonly db: Kysely<any>) {}

  async take(bucket: string, perMinute: number, cost = 1): Promise<TakeResult> {
    this.sweepNowAndThen();
    const perSecond = perMinute / 60;
    const refilled = sql`least(${perMinute}::float8, b.tokens + extract(epoch from clock_timestamp() - b.updated_at) * ${perSecond}::float8)`;
    if (cost <= perMinute) {
      const taken = await sql<{ tokens: number }>`
        insert into rate_limit_buckets as b (bucket, tokens, updated_at)
        values (${bucket}, ${perMinute - cost}::float8, clock_timestamp())
        on conflict (bucket) do update set tokens = ${refilled} - ${cost}::float8, updated_at = clock_timestamp()
          where ${refilled} >= ${cost}::float8
        returning tokens`.execute(this.db);
      const row = taken.rows[0];
      if (row) return { ok: true, remaining: Math.floor(Number(row.tokens)) };
    }
    // Refused: more than a full bucket can never be paid at once, so wait for a full one.
    const now = await sql<{ tokens: number }>`select ${refilled} as tokens from rate_limit_buckets b where bucket = ${bucket}`.execute(this.db);
    const tokens = Number(now.rows[0]?.tokens ?? perMinute);
    return { ok: false, retryAfterMs: Math.max(1, Math.ceil(((Math.min(cost, perMinute) - tokens) / perSecond) * 1000)) };
  }

  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    void sql`delete from rate_limit_buckets where updated_at < clock_timestamp() - interval '2 minutes'`.execute(this.db).catch(() => undefined);
  }
}
