// Topic views, counted without a write per view: each instance adds them up in memory, per topic,
// and adds the sums to the database in one batch (../../store/topic-reads.ts: two statements
// whatever the batch holds) when its timer fires or when the batch reaches its size limit, and once
// more when the instance stops. A crash loses at most one interval's views of that instance: a view
// count is an estimate, never worth a write per page.
import type { TopicViewCounts } from '../../store/topic-reads.ts';

export type ViewCounterOptions = {
  /** The most topics one batch holds: a full batch is written at once (memory stays bounded). */
  maxTopics?: number;
  /** A failed batch is reported here (its views are dropped: counts are estimates). */
  onError?: (err: unknown) => void;
};

export class ViewCounter {
  private pending = new Map<string, { communityId: string; topicId: string; views: number }>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly maxTopics: number;

  constructor(
    private readonly store: TopicViewCounts,
    private readonly options: ViewCounterOptions = {},
  ) {
    this.maxTopics = options.maxTopics ?? 5000;
  }

  /** One view of a topic. */
  count(communityId: string, topicId: string): void {
    const key = `${communityId}:${topicId}`;
    const had = this.pending.get(key);
    if (had) had.views++;
    else this.pending.set(key, { communityId, topicId, views: 1 });
    if (this.pending.size >= this.maxTopics) void this.flush();
  }

  /** Views counted and not written yet (for tests and the shutdown log). */
  get waiting(): number {
    let n = 0;
    for (const p of this.pending.values()) n += p.views;
    return n;
  }

  /** Writes the batch so far (batches are written one after another); never throws. */
  async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(() =>
      this.store.add(batch).catch((err: unknown) => this.options.onError?.(err)),
    );
    return this.writing;
  }

  /** Writes a batch every `intervalMs` until stopped. */
  start(intervalMs: number): void {
    this.timer ??= setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
