// Who wrote lately, by the WAL position their last write left on the primary: a writer's reads go
// to the primary until every standby that answers has replayed it, so a writer reads its own
// writes at once, and from a standby again as soon as the standby caught up (usually well under a
// second), never after a fixed time.
//
// Across instances: the position is read and sent with NOTIFY on the channel `hamlet_reads` in one
// statement after the write committed and before it is answered, and every instance listens, so an
// instance hears of a writer about a millisecond after the commit, before the writer can have its
// answer and ask another instance. An instance that may have missed notifications (starting, or its
// LISTEN connection down or just back) sends every read to the primary until the standbys replayed
// what the primary held then (Standbys' floor and mayRead).
//
// Bounded: at most `limit` writers are remembered; the oldest one dropped raises the floor to its
// position instead (reads of everyone wait for it, which a standby has almost always replayed).
import { sql, type Kysely } from 'kysely';
import type { PgChannel } from './pg-channel.ts';
import { lsnOf, type Standbys } from './pg-standbys.ts';
import type { Database } from './schema.ts';

export const WRITERS_CHANNEL = 'hamlet_reads';

/** A write's position, or (when it could not be read) the local time after it. */
type Mark = { lsn: bigint } | { at: number };

export class RecentWriters {
  private readonly marks = new Map<string, Mark>();

  constructor(
    private readonly standbys: Standbys,
    private readonly primary: Kysely<Database>,
    private readonly channel: PgChannel,
    private readonly limit = 10_000,
  ) {}

  /** Starts hearing other instances' writers (resolves once the channel first listens). */
  async listen(): Promise<void> {
    this.channel.onReconnect(() => this.standbys.raiseFloorToNow());
    await this.channel.listen((payload) => {
      const m = /^(\S{1,100}) ([0-9A-F]+\/[0-9A-F]+)$/i.exec(payload);
      if (m) this.note(m[1]!, { lsn: lsnOf(m[2]) });
    });
  }

  /** Whether `writer`'s reads must go to the primary now (a write of theirs not replayed everywhere). */
  pending(writer: string): boolean {
    const mark = this.marks.get(writer);
    if (!mark) return false;
    const replayed =
      'lsn' in mark
        ? mark.lsn <= (this.standbys.replayedEverywhere() ?? -1n)
        : mark.at <= this.standbys.caughtUpEverywhere();
    if (replayed) this.marks.delete(writer);
    return !replayed;
  }

  /**
   * `writer` just wrote (its write committed): remembered here, and told to every instance. Never
   * throws: if the position cannot be read, the writer's reads wait for the time instead.
   */
  async wrote(writer: string): Promise<void> {
    const at = performance.now();
    try {
      const r = await sql<{ lsn: string }>`
        select l.lsn, pg_notify(${WRITERS_CHANNEL}, ${writer} || ' ' || l.lsn)
          from (select pg_current_wal_lsn()::text as lsn) l`.execute(this.primary);
      this.note(writer, { lsn: lsnOf(r.rows[0]?.lsn) });
    } catch {
      this.note(writer, { at });
    }
  }

  /** How many writers are remembered now. */
  get size(): number {
    return this.marks.size;
  }

  private note(writer: string, mark: Mark): void {
    const known = this.marks.get(writer);
    this.marks.delete(writer);
    // Notifications of two instances may cross: a position never goes back.
    const keep = known && 'lsn' in known && 'lsn' in mark && known.lsn > mark.lsn;
    this.marks.set(writer, keep ? known : mark);
    while (this.marks.size > this.limit) {
      const [oldest, dropped] = this.marks.entries().next().value as [string, Mark];
      this.marks.delete(oldest);
      if ('lsn' in dropped) this.standbys.raiseFloor(dropped.lsn);
      else this.standbys.raiseFloorToNow();
    }
  }
}
