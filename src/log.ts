// The process logger: JSON lines (pino). Anything that could carry a secret is redacted by path, so
// a careless `log.info({ req })` still never writes a key, password or session token. Warnings and
// errors that repeat are summarised: the first of a kind is written in full, later ones of the same
// kind only as a count, at most one summary line per window ("… (repeated 812 times in the last
// 10 s)"); a kind quiet for a whole window is forgotten, so its next occurrence is written in full.
// Standard output gets lines in batches (batchedStdout): one write for many lines, not one a line.
import { destination, pino, symbols, type DestinationStream, type Logger, type LogFn } from 'pino';

export type { Logger };

export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'password',
  '*.password',
  'key',
  '*.key',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'credential',
  '*.credential',
];

/** How long repeats of one kind of warning or error are counted before their summary line. */
export const REPEAT_WINDOW_MS = 10_000;

export type LoggerOptions = {
  /** The summary window of repeated warnings and errors (default REPEAT_WINDOW_MS). */
  repeatWindowMs?: number;
};

/** pino's numeric level of `warn`: warnings and errors are summarised, nothing below. */
const WARN = 40;

export function createLogger(
  level: string,
  destination?: NodeJS.WritableStream,
  options: LoggerOptions = {},
): Logger {
  const repeats = new Repeats<{ logger: Logger; method: LogFn; msg: string }>(
    options.repeatWindowMs ?? REPEAT_WINDOW_MS,
  );
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    for (const d of repeats.due()) {
      const seconds = Math.round(d.sinceMs / 1000);
      d.last.method.call(
        d.last.logger,
        { repeated: d.repeated, sinceMs: d.sinceMs },
        `${d.last.msg} (repeated ${d.repeated} times in the last ${seconds} s)`,
      );
    }
    if (repeats.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: 'hamlet' },
      hooks: {
        logMethod(args, method, lvl) {
          if (lvl < WARN) return method.apply(this, args);
          const msg = messageOf(args);
          if (repeats.note(kindOf(lvl, msg, args[0]), { logger: this, method, msg }))
            return method.apply(this, args);
          timer ??= setInterval(flush, repeats.windowMs).unref();
        },
      },
    },
    (destination as DestinationStream | undefined) ?? batchedStdout(),
  );
}

/** Lines are held until this many bytes are waiting, or FLUSH_EVERY_MS has passed. */
const BATCH_BYTES = 8 * 1024;
const FLUSH_EVERY_MS = 100;

/**
 * Standard output in batches: a line waits at most FLUSH_EVERY_MS (or until BATCH_BYTES are
 * waiting), then everything waiting goes out in one synchronous write. One write per line was ~6%
 * of a ping's CPU on the real server (bench/real-server.ts), and an asynchronous write still in
 * flight when the process exits is lost. Lines are held here rather than in the destination, which
 * measures its whole buffer on every write it is given. What is waiting is written when the process
 * exits, so only a kill -9 can lose lines (at most FLUSH_EVERY_MS of them).
 */
function batchedStdout(): DestinationStream {
  stdoutBatches ??= startBatching();
  return stdoutBatches;
}

/** The process's one batched standard output, made when a first logger writes there. */
let stdoutBatches: DestinationStream | undefined;

function startBatching(): DestinationStream {
  const out = destination({ dest: 1, sync: true });
  let waiting = '';
  const flush = () => {
    if (!waiting) return;
    const text = waiting;
    waiting = '';
    try {
      out.write(text);
    } catch {
      // Standard output is closed: there is nowhere left to write to.
    }
  };
  setInterval(flush, FLUSH_EVERY_MS).unref();
  process.once('exit', flush);
  return {
    write(line: string) {
      waiting += line;
      if (waiting.length >= BATCH_BYTES) flush();
      return true;
    },
  };
}

function messageOf(args: unknown[]): string {
  const first = args[0];
  if (typeof first === 'string') return first;
  return typeof args[1] === 'string' ? args[1] : first instanceof Error ? first.message : '';
}

/**
 * What makes two lines the same for the summary: level, message, the error's name and message
 * (`err`, or an Error logged alone), and a `kind` field when the caller sets one.
 */
function kindOf(level: number, msg: string, first: unknown): string {
  const fields = (typeof first === 'object' && first !== null ? first : {}) as {
    err?: unknown;
    kind?: unknown;
  };
  const err = first instanceof Error ? first : fields.err;
  const error = err instanceof Error ? `${err.name}: ${err.message}` : '';
  const kind = typeof fields.kind === 'string' ? fields.kind : '';
  return `${level}\u0000${msg}\u0000${error}\u0000${kind}`.slice(0, 1000);
}

/**
 * Repeats of each kind of event, counted: the first of a kind is told in full (note → true); later
 * ones are counted, and due() hands out each kind's untold count at most once per window. A kind
 * found quiet for a whole window by due() is forgotten. At most `maxKinds` are counted at once:
 * beyond that every event is told in full (bounded memory whatever the events say).
 */
export class Repeats<T> {
  private readonly kinds = new Map<string, { reportedAt: number; untold: number; last: T }>();

  constructor(
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKinds = 1000,
  ) {}

  get size(): number {
    return this.kinds.size;
  }

  /** Whether this event is to be told in full (the first of its kind); otherwise it is counted. */
  note(kind: string, last: T): boolean {
    const seen = this.kinds.get(kind);
    if (seen && seen.untold === 0 && this.now() - seen.reportedAt >= this.windowMs) {
      // Quiet for a whole window: this one starts the kind afresh.
      seen.reportedAt = this.now();
      seen.last = last;
      return true;
    }
    if (seen) {
      seen.untold++;
      seen.last = last;
      return false;
    }
    if (this.kinds.size < this.maxKinds)
      this.kinds.set(kind, { reportedAt: this.now(), untold: 0, last });
    return true;
  }

  /** The kinds whose window is over with untold repeats (their count starts again); quiet ones are forgotten. */
  due(): { kind: string; repeated: number; sinceMs: number; last: T }[] {
    const now = this.now();
    const out: { kind: string; repeated: number; sinceMs: number; last: T }[] = [];
    for (const [kind, s] of this.kinds) {
      const sinceMs = now - s.reportedAt;
      if (sinceMs < this.windowMs) continue;
      if (s.untold === 0) {
        this.kinds.delete(kind);
        continue;
      }
      out.push({ kind, repeated: s.untold, sinceMs, last: s.last });
      s.untold = 0;
      s.reportedAt = now;
    }
    return out;
  }

  /** The condition behind `kind` ended: its next event is told in full again. */
  forget(kind: string): void {
    this.kinds.delete(kind);
  }
}

/** Writes one line of pre-serialised JSON members ("\"face\":\"mcp\",…") and its message. */
export type LineWriter = (members: string, msg: string) => void;

/**
 * Lines whose every field the caller chose and none can be a secret (the access lines): the
 * logger's destination and format at level info, without the redaction pass (≈7 µs a line, the
 * largest part of a request's logging cost). Undefined when the logger is above info.
 */
export function infoLines(logger: Logger): LineWriter | undefined {
  if (!logger.isLevelEnabled('info')) return undefined;
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[
    symbols.streamSym
  ];
  if (!stream) return undefined;
  return (members, msg) =>
    void stream.write(
      `{"level":30,"time":${Date.now()},"service":"hamlet",${members},"msg":${JSON.stringify(msg)}}\n`,
    );
}

/** `text` with every URL in it cut to origin and path (no credentials, no query, no fragment). */
export function withoutUrlSecrets(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s"'<>]+/g, (url) => {
    try {
      const u = new URL(url);
      return `${u.origin}${u.pathname}`;
    } catch {
      return '[url]';
    }
  });
}
