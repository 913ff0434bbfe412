// The webhook dispatcher: claims due deliveries from the outbox queue (each by one instance, under a
// lease), renders each event in the API's shapes, signs it with both schemes, POSTs it through the
// safe sender, records the attempt, then marks it delivered (2xx), schedules a retry with backoff
// and jitter, marks it failed when attempts run out or at once when the target is refused by policy
// (not a public address: no retry changes that), or disables the endpoint on 410 Gone. A
// dispatcher that dies mid-delivery leaves its lease to expire; the delivery is then sent again with
// the same webhook-id (at least once). The loop (read when the next delivery falls due, claim only
// then, wake at once after a local commit) is the one outbox worker's (src/outbound/outbox-worker.ts).
// Once an hour it forgets events older than the retention whose deliveries have all ended.
import { BoundedCache } from '../bounded-cache.ts';
import type { WebhookSettings } from '../config/config.ts';
import { withoutUrlSecrets, type Logger } from '../log.ts';
import type { Services } from '../services.ts';
import type { Store } from '../store/repositories.ts';
import type { ClaimedDelivery, DeliveryOutcome } from '../store/webhooks.ts';
import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from '../domain/webhooks/backoff.ts';
import { signatureHeaders } from '../domain/webhooks/signing.ts';
import { renderWebhookEvent } from '../operations/webhook-events.ts';
import { VERSION } from '../version.ts';
import { postWebhook, type SendResult } from './sender.ts';
import { OutboxWorker } from '../outbound/outbox-worker.ts';

export type DispatcherDeps = {
  store: Store;
  services: Services;
  settings: WebhookSettings;
  logger: Logger;
  /** Counts each attempt's outcome. */
  metrics?: { webhookAttempt(outcome: 'delivered' | 'retrying' | 'failed'): void };
  pollMs?: number;
  batch?: number;
};

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Events forgotten per statement batch, and batches per pass: a long backlog is worked off over passes. */
const PRUNE_BATCH = 500;
const PRUNE_BATCHES = 20;
/** Community slugs kept for rendering events (one is read again once pushed out). */
const CACHED_SLUGS = 10_000;

export class WebhookDispatcher {
  private readonly slugs = new BoundedCache<string, string>({ maxEntries: CACHED_SLUGS });
  private readonly policy: RetryPolicy;
  private readonly worker: OutboxWorker<ClaimedDelivery>;

  constructor(private readonly deps: DispatcherDeps) {
    this.policy = {
      ...DEFAULT_RETRY,
      baseMs: deps.settings.retryBaseMs,
      maxAttempts: deps.settings.maxAttempts,
    };
    const leaseMs = deps.settings.timeoutMs * 2 + 1_000;
    this.worker = new OutboxWorker<ClaimedDelivery>(
      {
        name: 'webhook',
        claim: async (limit) => deps.store.webhookQueue.claim({ now: Date.now(), leaseMs, limit }),
        nextDue: async () => deps.store.webhookQueue.nextDue(),
        handle: async (claimed, signal) => this.deliver(claimed, signal),
        describe: (claimed) => ({ delivery: claimed.delivery.id }),
        housekeeping: { everyMs: PRUNE_EVERY_MS, run: async () => this.prune() },
      },
      { log: deps.logger, pollMs: deps.pollMs, batch: deps.batch },
    );
  }

  start(): void {
    this.worker.start();
  }

  /** Looks for work now (a local write just committed an event). */
  wake(): void {
    this.worker.wake();
  }

  /**
   * Stops claiming; deliveries in flight get up to `graceMs` (their timeout bounds the wait), then
   * are given up and left, uncounted, for another instance.
   */
  async stop(graceMs?: number): Promise<void> {
    await this.worker.stop(graceMs);
  }

  /** Claims and delivers one batch; returns how many deliveries it handled. */
  async runOnce(): Promise<number> {
    return this.worker.runOnce();
  }

  /**
   * Forgets events older than the retention whose deliveries have all ended, with their deliveries
   * and attempts (bounded batches); returns how many events.
   */
  async prune(now = Date.now()): Promise<number> {
    const before = now - this.deps.settings.retentionDays * 86_400_000;
    let total = 0;
    for (let i = 0; i < PRUNE_BATCHES; i++) {
      const n = await this.deps.store.webhookQueue.prune({ before, limit: PRUNE_BATCH });
      total += n;
      if (n < PRUNE_BATCH) break;
    }
    if (total)
      this.deps.logger.info({ events: total }, 'webhook events past their retention forgotten');
    return total;
  }

  private async deliver(
    { delivery, endpoint, event, leaseToken }: ClaimedDelivery,
    signal: AbortSignal,
  ): Promise<void> {
    const { store, services, settings, logger } = this.deps;
    const startedAt = new Date();
    let result: SendResult;
    try {
      const body = JSON.stringify(renderWebhookEvent(event, await this.slugOf(event.communityId)));
      const timestamp = Math.floor(startedAt.getTime() / 1000);
      const headers = signatureHeaders({
        secrets: await services.webhooks.signingSecrets(endpoint),
        deliveryId: delivery.id,
        event: event.type,
        timestamp,
        body,
      });
      result = await postWebhook(
        endpoint.url,
        {
          'content-type': 'application/json',
          'user-agent': `Hamlet-Webhooks/${VERSION}`,
          ...headers,
        },
        body,
        settings,
        signal,
      );
    } catch (err) {
      result = {
        status: null,
        error: err instanceof Error ? err.message : String(err),
        excerpt: null,
        durationMs: 0,
      };
    }
    if (result.stopped) {
      // Given up at a stop: sent again, with the same webhook-id, by the next claim (at least once).
      await store.webhookQueue.release(delivery.id, leaseToken);
      return;
    }
    await store.webhookQueue.recordAttempt({
      communityId: delivery.communityId,
      deliveryId: delivery.id,
      attempt: delivery.attempts,
      startedAt: startedAt.toISOString(),
      durationMs: result.durationMs,
      statusCode: result.status,
      error: result.error,
      responseExcerpt: result.excerpt,
    });
    const outcome = this.outcomeOf(delivery.attempts, result);
    this.deps.metrics?.webhookAttempt(outcome.status === 'pending' ? 'retrying' : outcome.status);
    if (outcome.status !== 'delivered')
      // Summarised per endpoint and answer by the logger: one line, then counts (src/log.ts).
      logger.warn(
        {
          kind: `${endpoint.id} ${result.status ?? 'no answer'}`,
          endpoint: endpoint.id,
          community: delivery.communityId,
          delivery: delivery.id,
          attempt: delivery.attempts,
          status: result.status,
          reason: withoutUrlSecrets(outcome.lastError ?? ''),
          retrying: outcome.status === 'pending',
        },
        'webhook delivery failed',
      );
    if (result.status === 410) {
      await store.webhookQueue.disableEndpoint(
        endpoint.id,
        `The receiver answered 410 Gone on ${startedAt.toISOString()}; re-enable the endpoint once it accepts deliveries again.`,
      );
      logger.warn(
        { endpoint: endpoint.id, community: delivery.communityId },
        'webhook endpoint disabled after 410 Gone',
      );
    }
    if (!(await store.webhookQueue.finish(delivery.id, leaseToken, outcome))) {
      logger.warn(
        { delivery: delivery.id },
        'webhook delivery lease expired before the attempt finished',
      );
    }
  }

  private outcomeOf(attempt: number, r: SendResult): DeliveryOutcome {
    if (r.status !== null && r.status >= 200 && r.status < 300)
      return { status: 'delivered', lastStatus: r.status };
    const lastError = r.error ?? `The receiver answered ${r.status}.`;
    if (r.refused)
      return {
        status: 'failed',
        lastStatus: null,
        lastError: `${lastError} Not retried: deliveries go to public addresses only. Point the endpoint at a public URL and redeliver.`,
      };
    if (r.status === 410)
      return {
        status: 'failed',
        lastStatus: r.status,
        lastError: 'Gone (410): the endpoint was disabled.',
      };
    const delay = retryDelayMs(attempt, this.policy);
    if (delay === null)
      return {
        status: 'failed',
        lastStatus: r.status,
        lastError: `${lastError} Gave up after ${attempt} attempts.`,
      };
    return {
      status: 'pending',
      nextAttemptAt: Date.now() + delay,
      lastStatus: r.status,
      lastError,
    };
  }

  private async slugOf(communityId: string): Promise<string> {
    let slug = this.slugs.get(communityId);
    if (!slug) {
      slug = (await this.deps.store.communities.getById(communityId))?.slug ?? 'unknown';
      this.slugs.set(communityId, slug);
    }
    return slug;
  }
}
