// Which of DATABASE_URL's hosts takes writes (node-postgres does not understand a URL listing
// several, libpq's `postgres://u:p@a:5432,b:5432/db`): the one not in recovery. PgHosts.primary
// probes `pg_is_in_recovery()` on each and probes again once told a connection to it failed, so a
// promoted standby is found without a restart. Which errors mean "this server is gone or is not
// the one to use" is decided here as well.
import pg from 'pg';
import { hostOf, hostUrls } from '../config/pg-urls.ts';

/** SQLSTATE classes and codes that say the server is gone, going, or not the one to write to. */
const SERVER_GONE = new Set([
  '57P01', // admin_shutdown (terminated, or the server is shutting down)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery without hot standby)
  '25006', // read_only_sql_transaction: a write reached a server in recovery
]);
const NETWORK =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN/;
const CLIENT_SAYS =
  /Connection terminated|Connection ended|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery)|No host of DATABASE_URL takes writes/i;

/** Whether `err` says the server could not be reached or is no longer serving this connection. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || SERVER_GONE.has(code))) return true;
  if (typeof code === 'string' && NETWORK.test(code)) return true;
  return CLIENT_SAYS.test(err.message) || NETWORK.test(err.message);
}

/**
 * Where a multi-host URL writes: the first of its hosts (in the order listed) not in recovery,
 * found by probing each; remembered until `forget()` (a connection to it failed), then probed
 * again at the next call. Concurrent calls share one probe; a failed probe is remembered for
 * `retryMs`, so an outage costs one probe per host per `retryMs`, not one per query.
 */
export class PgHosts {
  readonly urls: string[];
  private found: Promise<string> | undefined;

  constructor(
    url: string,
    private readonly connectTimeoutMs = 5_000,
    private readonly retryMs = 250,
  ) {
    this.urls = hostUrls(url);
  }

  get multiple(): boolean {
    return this.urls.length > 1;
  }

  /** The URL of the host that takes writes (a single-host URL is taken as it is, never probed). */
  async primary(): Promise<string> {
    if (!this.multiple) return this.urls[0]!;
    if (!this.found) {
      const probing = this.probe();
      this.found = probing;
      probing.catch(() => {
        setTimeout(() => {
          if (this.found === probing) this.found = undefined;
        }, this.retryMs).unref();
      });
    }
    return this.found;
  }

  /** The primary is no longer known (a connection to it failed): the next call probes again. */
  forget(): void {
    if (this.multiple) this.found = undefined;
  }

  private async probe(): Promise<string> {
    const answers = await Promise.all(this.urls.map(async (u) => this.inRecovery(u)));
    const at = answers.findIndex((a) => a === false);
    if (at >= 0) return this.urls[at]!;
    const said = this.urls.map(
      (u, i) =>
        `${hostOf(u)} ${answers[i] === true ? 'is in recovery' : `(${String(answers[i])})`}`,
    );
    throw new Error(`No host of DATABASE_URL takes writes: ${said.join(', ')}`);
  }

  /** true/false from `pg_is_in_recovery()`, or why it could not be asked. */
  private async inRecovery(url: string): Promise<boolean | string> {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: this.connectTimeoutMs,
      application_name: 'hamlet probe',
    });
    client.on('error', () => undefined); // the connection failing later is the query's to say
    try {
      await client.connect();
      const r = await client.query<{ r: boolean }>('select pg_is_in_recovery() as r');
      return r.rows[0]!.r;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    } finally {
      client.end().catch(() => undefined);
    }
  }
}
