// Connection pools per PostgreSQL server, each behind Kysely's own PostgresDriver (so a statement
// runs exactly as with a plain PostgresDialect), and the primary among DATABASE_URL's hosts:
// connections for writes come from the pool of the host PgHosts found not in recovery; a
// connection error there makes it look again at the next statement (failover without a restart).
import { PostgresDriver, type DatabaseConnection, type Driver } from 'kysely';
import type pg from 'pg';
import { isConnectionError, type PgHosts } from './pg-hosts.ts';
import { patiently } from './pg-patient.ts';

/** A connection handed out by one server's driver, with that driver (which takes it back). */
export type Held = { driver: Required<Driver>; conn: DatabaseConnection; server: ServerPool };

/** One server's pool and driver. */
export class ServerPool {
  private ready: Promise<void> | undefined;
  readonly driver: Required<Driver>;

  constructor(
    readonly url: string,
    readonly pool: pg.Pool,
  ) {
    this.driver = new PostgresDriver({ pool });
  }

  async acquire(): Promise<Held> {
    await (this.ready ??= this.driver.init());
    return { driver: this.driver, conn: await this.driver.acquireConnection(), server: this };
  }

  async release(held: Held): Promise<void> {
    await held.driver.releaseConnection(held.conn);
  }

  async end(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/** The primary's pool, among one pool per host of DATABASE_URL (made when first needed). */
export class PrimaryPools {
  private readonly pools = new Map<string, ServerPool>();

  constructor(
    private readonly hosts: PgHosts,
    private readonly makePool: (url: string) => pg.Pool,
    /** How long a connection is waited for while the primary restarts or a standby is promoted. */
    private readonly waitMs = 5_000,
  ) {}

  /** The pool of the host that takes writes now (probed when not known). */
  async current(): Promise<ServerPool> {
    const url = await this.hosts.primary();
    let server = this.pools.get(url);
    if (!server) this.pools.set(url, (server = new ServerPool(url, this.makePool(url))));
    return server;
  }

  /**
   * A connection to the primary, waited for (./pg-patient.ts) while it restarts or a standby is
   * promoted. With several hosts, one that cannot be had makes the primary unknown and the next
   * attempt looks for it again (a failover moved it meanwhile).
   */
  async acquire(): Promise<Held> {
    return patiently(
      async () => (await this.current()).acquire(),
      this.waitMs,
      () => this.hosts.forget(),
    );
  }

  /** Told about a statement's failure on the primary: a lost server is looked for again. */
  failed(err: unknown): void {
    if (isConnectionError(err)) this.hosts.forget();
  }

  /** Every pool's connections, summed (for metrics). */
  stats(): { total: number; idle: number; waiting: number } {
    let total = 0;
    let idle = 0;
    let waiting = 0;
    for (const { pool } of this.pools.values()) {
      total += pool.totalCount;
      idle += pool.idleCount;
      waiting += pool.waitingCount;
    }
    return { total, idle, waiting };
  }

  async end(): Promise<void> {
    await Promise.all([...this.pools.values()].map(async (p) => p.end()));
  }
}

/**
 * Every error a pool's connections emit is observed: the pool re-emits an idle client's, and each
 * client it hands out gets its own listener, since a client checked out by a query (or held by a
 * transaction) emits on itself only, and an 'error' event nobody listens to ends the process. The
 * query running on it rejects as well; the pool drops the broken client when it is released.
 */
export function observePoolErrors(pool: pg.Pool, onError: (err: Error) => void): void {
  pool.on('error', () => undefined); // an idle client's error: its own listener has it already
  pool.on('connect', (client) => client.on('error', onError));
}
