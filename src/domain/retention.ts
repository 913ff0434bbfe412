// Retention: what is deleted once it is old, run by every `serve` instance on a timer (deletes are
// idempotent, so instances need not agree who sweeps). Idempotency records go after the configured
// hours (a retry after that is a new write); web sessions and OAuth codes as soon as they expire
// (or a session is revoked); audit entries only when the operator sets a retention in days. Each
// kind is deleted in bounded batches, a bounded number per pass, so a long backlog is worked off
// over passes without holding locks for long. Webhook events have their own retention (the
// dispatcher's).
import type { Logger } from '../log.ts';
import type { RetentionKind, RetentionRepository } from '../store/retention.ts';

export type RetentionSettings = {
  /** Hours an idempotency record (a write's stored response) is kept. */
  idempotencyHours: number;
  /** Days an audit log entry is kept; absent: kept for ever. */
  auditDays?: number;
};

export type RetentionDeps = {
  retention: RetentionRepository;
  settings: RetentionSettings;
  logger: Logger;
  /** How often a pass runs (default every ten minutes). */
  everyMs?: number;
  batch?: number;
  batchesPerPass?: number;
};

const HOUR = 3_600_000;

export class RetentionSweep {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(private readonly deps: RetentionDeps) {}

  /** Runs a pass now and then every `everyMs`; a failed pass is logged and the next one runs. */
  start(): void {
    if (this.timer) return;
    const pass = () => {
      this.running ??= this.runOnce()
        .catch((err: unknown) => this.deps.logger.warn({ err }, 'retention pass failed'))
        .finally(() => (this.running = undefined));
    };
    this.timer = setInterval(pass, this.deps.everyMs ?? 10 * 60_000);
    this.timer.unref();
    pass();
  }

  /** Stops the timer and waits for a pass in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass over every kind; returns how many rows of each went. */
  async runOnce(now = Date.now()): Promise<Partial<Record<RetentionKind, number>>> {
    const { settings } = this.deps;
    const cutoffs: [RetentionKind, number][] = [
      ['idempotency', now - settings.idempotencyHours * HOUR],
      ['webSessions', now],
      ['oauthCodes', now],
    ];
    if (settings.auditDays) cutoffs.push(['audit', now - settings.auditDays * 24 * HOUR]);
    const deleted: Partial<Record<RetentionKind, number>> = {};
    for (const [kind, before] of cutoffs) {
      const n = await this.sweep(kind, new Date(before).toISOString());
      if (n) deleted[kind] = n;
    }
    if (Object.keys(deleted).length)
      this.deps.logger.info({ deleted }, 'rows past their retention deleted');
    return deleted;
  }

  private async sweep(kind: RetentionKind, before: string): Promise<number> {
    const batch = this.deps.batch ?? 500;
    let total = 0;
    for (let i = 0; i < (this.deps.batchesPerPass ?? 20); i++) {
      const n = await this.deps.retention.deleteBatch(kind, before, batch);
      total += n;
      if (n < batch) break;
    }
    return total;
  }
}
