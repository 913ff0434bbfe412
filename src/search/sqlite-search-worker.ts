// A second thread for the hot path of a search without filters (./sqlite-pool.ts), one per
// file-backed SQLite database, with its own read-only connection to the file (WAL: it reads the
// last commit, beside the store's writer). On one thread the ranking of the pool and the exact
// topic total ran one after the other, each a scan of every match; here the worker takes a share:
//  - half(): the best N matches by the search's rank in one part of a community's rowid range, and
//    that part's topic total, while the main thread ranks the other part (the rank's statistics
//    are handed in, so the scores are the same whichever thread computes them);
//  - count(): the exact topic total of matches in the scope, while the main thread ranks.
//
// The rules:
//  - A job is the worker's only when the worker was started and the store's connection has no
//    transaction open (the worker cannot see uncommitted rows); otherwise, and whenever the worker
//    fails (error, exit, a statement's error), the caller does it in-thread: a job answers
//    undefined, never rejects. After a failure no worker is started for RETRY_AFTER_MS.
//  - The worker starts on first need (start()), not before: a database whose pools hold every
//    match never starts one. It is unref()'d, but ref()'d while a job is pending, so a process
//    waiting for one does not end before it (nor does an idle worker keep a process alive).
//  - It ends when the store closes (before the store's connection closes: ../store/sqlite-file.ts).
//  - Its code is plain JavaScript evaluated in the thread (no loader needed in it, whatever runs
//    the main thread: tsx, compiled JavaScript, Node 22 with its own better-sqlite3), and loads the
//    better-sqlite3 the main thread resolves, and Hamlet's ranking functions when the main thread
//    has them (./sqlite-ranking.ts). Rowid bounds, communities' numbers, the MATCH text and the
//    rank's statistics are bound parameters of statements prepared once; the SQL text holds only
//    constants.
import { Worker } from 'node:worker_threads';
import { sqliteFileOf, type SqliteFile } from '../store/sqlite-file.ts';
import {
  COMMUNITY_SHIFT,
  SLOT_BITS,
  SQLITE_WEIGHTS,
  type Rank,
  type RowidScope,
} from './sqlite-rowids.ts';
import { RANKING_ENTRY_POINT } from './sqlite-ranking-source.ts';
import type { AnySchemaDb } from '../store/any-schema.ts';

/** After the worker failed, how long searches count in-thread before another one is started. */
export const RETRY_AFTER_MS = 30_000;

/** How long the worker's connection waits for a lock (WAL readers rarely wait) before failing. */
const BUSY_TIMEOUT_MS = 50;

/** What the worker thread runs (CommonJS, as evaluated code is): workerData says which file. */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { fileURLToPath } = require('node:url');
const { sqlite, path, library, entryPoint, slotBits, communityShift, weights, busyTimeout } = workerData;
let db, one, many, everyPublic;
const ranks = new Map();
try {
  const Database = require(sqlite.startsWith('file:') ? fileURLToPath(sqlite) : sqlite);
  db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeout });
  if (library) db.loadExtension(library, entryPoint);
  const count = 'select count(distinct rowid >> ' + Number(slotBits) + ') as total from search_fts where search_fts match ?';
  one = db.prepare(count + ' and rowid between ? and ?');
  many = db.prepare(count + ' and (rowid >> ' + Number(communityShift) + ') in (select value from json_each(?))');
  everyPublic = db.prepare(count + ' and exists (select 1 from search_communities sc where sc.no = (search_fts.rowid >> ' + Number(communityShift) + ') and sc.public = 1)');
} catch (err) {
  // A plain Error crosses to the main thread with its message (a SqliteError arrives without it).
  throw new Error(String((err && err.message) || err));
}
const span = 2 ** Number(communityShift);
const w = weights.map(Number).join(', ');
// One statement per number of rank arguments (hamlet_bm25 takes one idf per phrase); FTS5's bm25: -1.
function rankOf(args) {
  const n = args ? args.length : -1;
  let statement = ranks.get(n);
  if (!statement) {
    const rank = n < 0
      ? '-bm25(search_fts, ' + w + ')'
      : 'hamlet_bm25(search_fts, ?, ' + w + args.slice(1).map(() => ', ?').join('') + ')';
    statement = db.prepare('select rowid, ' + rank + ' as s from search_fts where search_fts match ? and rowid between ? and ? order by s desc, rowid limit ?');
    ranks.set(n, statement);
  }
  return statement;
}
function run(job) {
  if (job.kind === 'half') {
    const rows = rankOf(job.args).all(...(job.args || []), job.match, job.lo, job.hi, job.size);
    const total = rows.length < job.size
      ? new Set(rows.map((r) => Math.floor(r.rowid / 2 ** Number(slotBits)))).size
      : Number(one.get(job.match, job.lo, job.hi).total);
    return { rows, total };
  }
  const row = job.range === 'public'
    ? everyPublic.get(job.match)
    : job.range.length === 1
      ? one.get(job.match, job.range[0] * span, (job.range[0] + 1) * span - 1)
      : many.get(job.match, JSON.stringify(job.range));
  return Number(row.total);
}
parentPort.on('message', (job) => {
  let reply;
  try {
    reply = { id: job.id, value: run(job) };
  } catch (err) {
    reply = { id: job.id, error: String((err && err.message) || err) };
  }
  parentPort.postMessage(reply);
});
parentPort.postMessage({ ready: true });
`;

/** The best matches of one part of a rowid range (rowid order among equal scores), and its topics. */
export type Half = { rows: { rowid: number; s: number }[]; total: number };

type Job =
  | { kind: 'count'; match: string; range: number[] | 'public' }
  | { kind: 'half'; match: string; args?: number[]; lo: number; hi: number; size: number };

type Reply = { ready: true } | { id: number; value?: unknown; error?: string };

const workers = new WeakMap<SqliteFile, SearchWorker>();

/**
 * The search worker of the database behind `db`; undefined for in-memory SQLite (and PostgreSQL).
 * `onFailure` is told why it failed (the first one given for a database is kept).
 */
export function searchWorkerOf(
  db: AnySchemaDb,
  onFailure?: (reason: string) => void,
  library?: string,
): SearchWorker | undefined {
  const file = sqliteFileOf(db);
  if (!file) return undefined;
  let worker = workers.get(file);
  if (!worker) workers.set(file, (worker = new SearchWorker(file, library)));
  worker.onFailure ??= onFailure;
  return worker;
}

export class SearchWorker {
  private worker?: Worker;
  private ready = false;
  private closed = false;
  private retryAt = 0;
  private nextId = 0;
  private readonly pending = new Map<number, (value: unknown) => void>();
  private waiters: ((up: boolean) => void)[] = [];
  /** Jobs the worker answered, and why it last failed (diagnostics, tests). */
  answered = 0;
  lastError?: string;
  /** Told why the worker failed or a job of it did. */
  onFailure?: (reason: string) => void;

  /** `library`: Hamlet's ranking functions (./sqlite-ranking.ts), loaded into the worker's connection. */
  constructor(
    private readonly file: SqliteFile,
    private readonly library?: string,
  ) {
    file.beforeClose(() => this.close());
  }

  /**
   * The number of distinct topics among the matches of `match` in the scope (communities by their
   * numbers in the rowid layout, or every public one), counted by the worker; undefined when it is
   * the caller's to count (no worker started, a transaction open on the store's connection, or the
   * worker failed meanwhile).
   */
  count(match: string, scope: RowidScope): Promise<number | undefined> | undefined {
    const range = scope.kind === 'public' ? ('public' as const) : scope.nos;
    return this.post<number>({ kind: 'count', match, range });
  }

  /**
   * The best `size` matches of `match` with rowids in [lo, hi] (one part of a community's range),
   * ordered by `rank` then rowid, and the part's topic total; undefined as for count(), and when
   * the rank is Hamlet's but the worker could not load its library.
   */
  half(
    match: string,
    rank: Rank,
    lo: number,
    hi: number,
    size: number,
  ): Promise<Half | undefined> | undefined {
    if (rank.kind === 'hamlet' && !this.library) return undefined;
    const args = rank.kind === 'hamlet' ? rank.args : undefined;
    return this.post<Half>({ kind: 'half', match, args, lo, hi, size });
  }

  private post<T>(job: Job): Promise<T | undefined> | undefined {
    const worker = this.worker;
    // A worker still starting takes the job when it is up (its port queues it): waiting for its
    // first message instead would need the main thread to yield, which a run of searches without
    // I/O between them never does. One that fails to start answers undefined.
    if (!worker || this.closed || this.file.connection.inTransaction) return undefined;
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, resolve as (value: unknown) => void);
      try {
        worker.postMessage({ id, ...job });
      } catch (err) {
        this.settle(id, undefined);
        this.fail(worker, err);
      }
    });
  }

  /** Starts the worker unless it is up or starting, the store closed, or it failed lately. */
  start(): void {
    if (this.worker || this.closed || Date.now() < this.retryAt) return;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_CODE, {
        eval: true,
        // Nothing of the main thread's loaders (tsx, test harnesses): the code above needs none.
        execArgv: [],
        workerData: {
          sqlite: import.meta.resolve('better-sqlite3'),
          path: this.file.path,
          library: this.library,
          entryPoint: RANKING_ENTRY_POINT,
          slotBits: SLOT_BITS,
          communityShift: COMMUNITY_SHIFT,
          weights: SQLITE_WEIGHTS,
          busyTimeout: BUSY_TIMEOUT_MS,
        },
      });
    } catch (err) {
      this.failed(`did not start: ${String(err)}`);
      this.retryAt = Date.now() + RETRY_AFTER_MS;
      return;
    }
    worker.unref();
    worker.on('message', (m: Reply) => this.received(worker, m));
    worker.on('messageerror', (err) => this.fail(worker, err));
    worker.on('error', (err) => this.fail(worker, err));
    worker.on('exit', (code) => this.fail(worker, `exited with code ${code}`));
    this.worker = worker;
  }

  /** Whether a worker is up, once it is (started first if needed): for tests and warm-ups. */
  async whenReady(): Promise<boolean> {
    if (this.worker && this.ready) return true;
    this.start();
    if (!this.worker) return false;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Whether the worker thread is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Ends the worker, if any (its connection closes with the thread); pending jobs fall back. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.stopped();
    if (!worker) return;
    // An unref()'d thread's exit would not keep the event loop alive for this await.
    worker.ref();
    await worker.terminate();
  }

  /** For tests: the thread itself, to end it as a crash would. */
  threadForTests(): Worker | undefined {
    return this.worker;
  }

  private received(worker: Worker, m: Reply): void {
    if (worker !== this.worker) return;
    if ('ready' in m) {
      this.ready = true;
      for (const w of this.waiters.splice(0)) w(true);
      return;
    }
    if (m.error !== undefined) this.failed(`a job failed: ${m.error}`);
    else this.answered++;
    this.settle(m.id, m.error === undefined ? m.value : undefined);
  }

  private settle(id: number, value: unknown): void {
    const resolve = this.pending.get(id);
    if (!resolve) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    resolve(value);
  }

  /** The worker failed: its pending jobs fall back, and none is started again for a while. */
  private fail(worker: Worker, err: unknown): void {
    if (worker !== this.worker) return;
    // A thread's uncaught error arrives cloned, not always as an Error (nor with its message).
    const e = err as { message?: unknown; code?: unknown } | null;
    this.failed(String(e?.message ?? e?.code ?? err));
    if (!this.closed) this.retryAt = Date.now() + RETRY_AFTER_MS;
    this.stopped();
    // A worker that is still running (a message it could not read) is ended; its exit is ignored.
    worker.terminate().catch(() => undefined);
    worker.unref();
  }

  /** Why the worker (or a job) failed, kept and told; its work is done in-thread meanwhile. */
  private failed(reason: string): void {
    this.lastError = reason;
    try {
      this.onFailure?.(reason);
    } catch {
      // A report that throws changes nothing of the fallback.
    }
  }

  /** No worker any more: every pending job and every waiter is answered. */
  private stopped(): void {
    this.worker = undefined;
    this.ready = false;
    for (const resolve of this.pending.values()) resolve(undefined);
    this.pending.clear();
    for (const w of this.waiters.splice(0)) w(false);
  }
}
