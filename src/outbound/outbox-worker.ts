// The one worker loop behind every outbox (mails, webhook deliveries): it reads when the next item
// falls due and claims only then (an idle worker writes nothing), claims a batch under a lease (each
// item by one instance), hands each claimed item to the queue's handler side by side, claims again
// at once after a full batch, and otherwise sleeps until the next item is due, a poll interval
// passes (another instance may have queued work), or a local commit wakes it. Work that feeds the
// queue (`beforeClaim`) runs at every turn; housekeeping runs on its own period. Stopping ends the
// claiming at once; items in flight get a bounded wait (`stop(graceMs)`), after which their
// handlers' signal aborts them, and each handler leaves its interrupted item for another claim.

/** What the worker logs to: an error of one item, or of a turn, never ends the loop. */
export type WorkerLog = {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
};

/** One outbox as the worker sees it. */
export type OutboxQueue<T> = {
  /** Names the queue in log lines ("mail", "webhook"). */
  name: string;
  /** Claims up to `limit` due items, each under a lease. */
  claim(limit: number): Promise<T[]>;
  /** When the next pending item falls due (epoch ms), or null when none is pending. */
  nextDue(): Promise<number | null>;
  /**
   * Sends one claimed item and records its outcome. When `signal` aborts (the worker is stopping
   * and the grace ran out) it gives up the send promptly and leaves the item to be claimed again.
   */
  handle(item: T, signal: AbortSignal): Promise<void>;
  /** The fields that name an item in a log line. */
  describe(item: T): Record<string, unknown>;
  /** Work that turns into items of this queue, run before each look for due items. */
  beforeClaim?(): Promise<unknown>;
  /** Housekeeping (e.g. forgetting old items), run at most once per `everyMs`. */
  housekeeping?: { everyMs: number; run(): Promise<unknown> };
};

export type OutboxWorkerOptions = { log: WorkerLog; pollMs?: number; batch?: number };

export class OutboxWorker<T> {
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private housekeptAt = 0;
  /** Aborts the sends in flight once a stop's grace ran out. */
  private readonly interrupt = new AbortController();
  private readonly pollMs: number;
  private readonly batch: number;

  constructor(
    private readonly queue: OutboxQueue<T>,
    private readonly options: OutboxWorkerOptions,
  ) {
    this.pollMs = options.pollMs ?? 1_000;
    this.batch = options.batch ?? 10;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks for work now (a local write just committed an item). */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Stops claiming at once; items in flight get up to `graceMs` to finish, then are interrupted
   * (their handlers leave them for another claim). Resolves once the loop has ended.
   */
  async stop(graceMs = Infinity): Promise<void> {
    this.running = false;
    this.wake();
    if (!this.loop) return;
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'over'>((resolve) => {
      if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve('over'), graceMs);
    });
    const ended = await Promise.race([this.loop.then(() => 'ended' as const), graceOver]);
    clearTimeout(timer);
    if (ended === 'over') this.interrupt.abort(new Error(`${this.queue.name} worker stopping`));
    await this.loop;
  }

  /** Runs the feeding work, then claims and handles one batch; returns how many items it handled. */
  async runOnce(): Promise<number> {
    await this.queue.beforeClaim?.();
    return this.claimAndHandle();
  }

  private async claimAndHandle(): Promise<number> {
    const claimed = await this.queue.claim(this.batch);
    await Promise.all(
      claimed.map((item) =>
        this.queue
          .handle(item, this.interrupt.signal)
          .catch((err: unknown) =>
            this.options.log.error(
              { err, ...this.queue.describe(item) },
              `${this.queue.name} send failed unexpectedly`,
            ),
          ),
      ),
    );
    return claimed.length;
  }

  private async run(): Promise<void> {
    const { log } = this.options;
    const { name } = this.queue;
    // `due`: when the next item falls due (null: none pending; undefined: to be looked up).
    let due: number | null | undefined;
    while (this.running) {
      await this.housekeep();
      if (this.queue.beforeClaim) {
        await this.queue
          .beforeClaim()
          .catch((err: unknown) => log.warn({ err }, `${name} outbox could not be fed`));
        due = undefined; // it may have queued items
      }
      if (due === null || due === undefined || due > Date.now()) due = await this.nextDue();
      if (due !== null && due <= Date.now()) {
        let handled = 0;
        try {
          handled = await this.claimAndHandle();
        } catch (err) {
          log.warn({ err }, `${name} outbox could not claim`);
        }
        if (handled >= this.batch) {
          due = 0; // a full batch: more may be due at once
          continue;
        }
        due = await this.nextDue();
      }
      if (!this.running) break;
      const wait =
        due === null ? this.pollMs : Math.max(10, Math.min(this.pollMs, due - Date.now()));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.wakeUp = () => {
          due = undefined;
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  private async housekeep(): Promise<void> {
    const chore = this.queue.housekeeping;
    if (!chore || Date.now() - this.housekeptAt < chore.everyMs) return;
    this.housekeptAt = Date.now();
    await chore
      .run()
      .catch((err: unknown) =>
        this.options.log.warn({ err }, `${this.queue.name} housekeeping failed`),
      );
  }

  /** When the next item falls due; when the database cannot say, the next poll claims (and says). */
  private async nextDue(): Promise<number | null> {
    return this.queue.nextDue().catch(() => Date.now() + this.pollMs);
  }
}
