// Maintenance mode (`hamlet maintenance on|off`, kept in the database so every instance follows
// it): reads serve, every write is refused with 503, Retry-After and the operator's message, for a
// restore or a migration that needs the data still. A serving instance reads the state every
// MAINTENANCE_POLL_MS in the background (never per request), so it takes effect on every instance
// within that; the CLI's own commands are not refused (they never poll).
import type { MaintenanceState, Store } from '../store/repositories.ts';
import { UnavailableError } from './errors.ts';

export const MAINTENANCE_POLL_MS = 2_000;
/** What a refused writer is told to wait: maintenance takes minutes, not seconds. */
export const MAINTENANCE_RETRY_SECONDS = 30;
export const DEFAULT_MAINTENANCE_MESSAGE =
  'This Hamlet is in maintenance: reading works, writing is paused for a few minutes.';

export class MaintenanceGate {
  private state: MaintenanceState | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: Store) {}

  /** The state last read (undefined: off, or never read). */
  current(): MaintenanceState | undefined {
    return this.state;
  }

  /** Throws the 503 a write gets while maintenance is on. */
  refuseWrites(): void {
    if (!this.state) return;
    throw new UnavailableError(
      `${this.state.message} Retry in ${MAINTENANCE_RETRY_SECONDS} seconds.`,
      MAINTENANCE_RETRY_SECONDS,
    );
  }

  /** Reads the state now; a database that does not answer keeps the last one. */
  async refresh(): Promise<void> {
    this.state = await this.store.maintenance.get().catch(() => this.state);
  }

  /** Reads now and then every MAINTENANCE_POLL_MS until stop(). */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), MAINTENANCE_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
