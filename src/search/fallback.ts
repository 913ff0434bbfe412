// Semantic search that degrades instead of failing: when the embeddings endpoint fails (down,
// unreachable, slow, answering garbage), semantic and hybrid searches run lexically and their
// result says `mode: "lexical"`. After a failure the endpoint is left alone for RETRY_AFTER_MS
// (searches go lexical at once), then the next search tries it again. The log gets one warning when
// the endpoint starts failing, then at most one summary per SUMMARY_EVERY_MS while it keeps failing,
// and one line when it answers again: never a line per search (the log's Repeats counts them).
import { Repeats, withoutUrlSecrets, type Logger } from '../log.ts';

const RETRY_AFTER_MS = 10_000;
const SUMMARY_EVERY_MS = 60_000;
const FALLBACK = 'lexical fallback';
/** How long a search waits for the query's embedding before it runs lexically. */
export const QUERY_EMBEDDING_TIMEOUT_MS = 5_000;

/** Raised by the semantic order when the embedder failed; the search then runs lexically. */
export class EmbedderUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super(`the embedder failed: ${describe(reason)}`, { cause: reason });
    this.name = 'EmbedderUnavailable';
  }
}

type Warn = Pick<Logger, 'warn' | 'info'>;

export class EmbedderHealth {
  private failingSince: number | undefined;
  private retryAt = 0;
  private lastError = '';
  /** Lexical fallbacks since the endpoint started failing; those since the last line are counted here. */
  private fallbacks = 0;
  private readonly repeats: Repeats<undefined>;

  constructor(
    private readonly log: Warn | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.repeats = new Repeats(SUMMARY_EVERY_MS, now);
  }

  /** Whether a search should try the embedder now (healthy, or the retry pause is over). */
  available(): boolean {
    return this.failingSince === undefined || this.now() >= this.retryAt;
  }

  /** The embedder answered: a failing endpoint is back. */
  succeeded(): void {
    if (this.failingSince === undefined) return;
    this.log?.info(
      { lexicalFallbacks: this.fallbacks, failingForMs: this.now() - this.failingSince },
      'semantic search: the embeddings endpoint answers again; semantic and hybrid searches use it',
    );
    this.failingSince = undefined;
    this.fallbacks = 0;
    this.repeats.forget(FALLBACK);
  }

  /** The embedder failed on this search (which then runs lexically). */
  failed(err: unknown): void {
    const now = this.now();
    this.lastError = describe(err instanceof EmbedderUnavailable ? err.reason : err);
    this.retryAt = now + RETRY_AFTER_MS;
    if (this.failingSince === undefined) {
      this.failingSince = now;
      this.fallbacks = 1;
      this.repeats.note(FALLBACK, undefined);
      this.log?.warn(
        { reason: this.lastError, retryAfterMs: RETRY_AFTER_MS },
        'semantic search: the embeddings endpoint failed; semantic and hybrid searches run lexically (mode "lexical") until it answers again',
      );
      return;
    }
    this.fellBack();
  }

  /** A search ran lexically without trying the embedder (within the retry pause). */
  skipped(): void {
    this.fellBack();
  }

  private fellBack(): void {
    this.fallbacks++;
    // A fallback after a quiet minute is summarised alone; others wait for their minute's summary.
    const due = this.repeats.note(FALLBACK, undefined)
      ? [{ repeated: 1, sinceMs: 0 }]
      : this.repeats.due();
    for (const d of due)
      this.log?.warn(
        {
          lexicalFallbacks: d.repeated,
          sinceMs: d.sinceMs,
          failingForMs: this.now() - this.failingSince!,
          reason: this.lastError,
        },
        'semantic search: the embeddings endpoint still fails; these semantic and hybrid searches ran lexically',
      );
  }
}

/** The error's message and cause, any URL in it cut to origin and path (no credentials, no query). */
function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return withoutUrlSecrets(`${message}${cause}`);
}
