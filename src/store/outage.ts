// Which engine errors are an outage rather than a bug: the database cannot be reached now (a restart,
// a stop, terminated backends, a pool with no free connection in time), the primary is being
// promoted (a write reached a server in recovery), or the database cannot take writes (a full disk,
// a read-only file, a locked or failing file). Each of these passes by itself; the faces answer it
// with 503 and Retry-After instead of "internal error", so clients retry.
import { isConnectionError } from './pg-hosts.ts';

/** SQLite result codes (better-sqlite3's names, extended codes included) of an outage. */
const SQLITE_OUTAGE = /^SQLITE_(FULL|READONLY|IOERR|BUSY|LOCKED|CANTOPEN|PROTOCOL)/;
const SQLITE_SAYS =
  /database or disk is full|attempt to write a readonly database|disk I\/O error|database is locked|unable to open database file/i;

/** PostgreSQL SQLSTATEs beyond lost connections: no space, too many connections, out of memory. */
const PG_OUTAGE = new Set([
  '53100', // disk_full
  '53200', // out_of_memory
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
  '58030', // io_error
]);

export type OutageKind = 'unreachable' | 'not writable';

/** What kind of outage `err` (or an error it was caused by) is, if it is one. */
export function outageOf(err: unknown): OutageKind | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const kind = ownOutage(e);
    if (kind) return kind;
  }
  return undefined;
}

function ownOutage(err: Error): OutageKind | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && PG_OUTAGE.has(code)) return 'not writable';
  if (typeof code === 'string' && SQLITE_OUTAGE.test(code)) return 'not writable';
  if (SQLITE_SAYS.test(err.message)) return 'not writable';
  if (isConnectionError(err)) return 'unreachable';
  return undefined;
}

/** Seconds a client is asked to wait before retrying after an outage. */
export const OUTAGE_RETRY_SECONDS = 2;
