// Counts the statements a process sends to its database, per HTTP request: the drivers themselves
// are wrapped (better-sqlite3's Statement runs and Database.exec, pg's Client.query), so every
// statement counts whatever built it (Kysely, the search index, BEGIN and COMMIT included), and an
// AsyncLocalStorage opened around each request of a node:http server attributes each statement to
// the request whose work sent it; statements sent outside any request (timers, background learning)
// count for none. For a bench process only: src/ knows nothing of it. Import it before the
// drivers are used.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/** The statements one request sent, in order (their SQL on one line, cut to 160 characters). */
export type RequestTally = { statements: string[] };

const current = new AsyncLocalStorage<RequestTally>();

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Replaces each method by one that records `sqlOf(this, args)` in the current request's tally. */
function wrapMethods(
  proto: Record<string, unknown>,
  names: string[],
  sqlOf: (self: unknown, args: unknown[]) => unknown,
): void {
  for (const name of names) {
    const fn = proto[name] as Method | undefined;
    if (typeof fn !== 'function') continue;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      current
        .getStore()
        ?.statements.push(String(sqlOf(this, args)).replace(/\s+/g, ' ').trim().slice(0, 160));
      return fn.apply(this, args);
    };
  }
}

const probe = new BetterSqlite3(':memory:');
const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
probe.close();
wrapMethods(
  statementProto,
  ['run', 'get', 'all', 'iterate'],
  (self) => (self as { source: string }).source,
);
wrapMethods(
  BetterSqlite3.prototype as unknown as Record<string, unknown>,
  ['exec'],
  (_, a) => a[0],
);
// pg's query takes the SQL text or a config object (or a Submittable such as a cursor) with `text`.
wrapMethods(pg.Client.prototype as unknown as Record<string, unknown>, ['query'], (_, a) =>
  typeof a[0] === 'string' ? a[0] : (a[0] as { text?: string } | undefined)?.text,
);

/**
 * Wraps the server's request listeners so that each request runs in a tally of its own, handed to
 * `onRequest` when the request arrives (read it once the response ended and its work settled).
 */
export function countPerRequest(server: Server, onRequest: (tally: RequestTally) => void): void {
  const listeners = server.listeners('request') as ((
    req: IncomingMessage,
    res: ServerResponse,
  ) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const tally: RequestTally = { statements: [] };
    onRequest(tally);
    current.run(tally, () => {
      for (const listener of listeners) listener.call(server, req, res);
    });
  });
}

/** Runs `fn` in a tally of its own: the statements its work sent, whatever the request. */
export async function countStatements<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; statements: string[] }> {
  const tally: RequestTally = { statements: [] };
  const value = await current.run(tally, fn);
  return { value, statements: tally.statements };
}
