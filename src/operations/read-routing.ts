// Which services an operation runs on: the one place a read is routed to PostgreSQL standbys. An
// operation that writes runs on the services over the primary, and so does every operation of a
// caller with a write not yet replayed on every standby (so a writer reads its own writes at once,
// on whichever instance: src/store/recent-writers.ts); every other read runs on the services over
// the replica-routing store, whose plain reads go to a standby that may take them
// (src/store/pg-routing.ts). Decided from the call's own facts, handed in by the pipeline: the
// operation (`write` in the catalogue) and the authenticated actor. standbysOf: which standbys, from
// the configuration, each change of their state logged.
import type { Config } from '../config/config.ts';
import type { Actor } from '../domain/actor.ts';
import type { Logger } from '../log.ts';
import type { Services } from '../services.ts';
import type { ReplicaOptions } from '../store/open.ts';

/** Who wrote lately (src/store/recent-writers.ts), by writer id. */
export type Writers = {
  /** Whether this writer's reads must go to the primary now. */
  pending(writer: string): boolean;
  /** This writer's write just committed (told to every instance; never throws). */
  wrote(writer: string): Promise<void>;
};

export type ReadRouting = {
  /** The services `actor`'s operation runs on. */
  servicesFor(actor: Actor, write: boolean): Services;
  /** Called once an operation that writes has returned, before it is answered. */
  wrote(actor: Actor): Promise<void>;
};

export function readRouting(primary: Services, replicas: Services, writers: Writers): ReadRouting {
  return {
    servicesFor(actor, write) {
      if (write) return primary;
      const writer = writerOf(actor);
      return writer !== undefined && writers.pending(writer) ? primary : replicas;
    },
    async wrote(actor) {
      const writer = writerOf(actor);
      if (writer !== undefined) await writers.wrote(writer);
    },
  };
}

/** A writer's id: an agent or a person (whichever key or session they use); visitors write nothing of their own. */
function writerOf(actor: Actor): string | undefined {
  if (actor.kind === 'agent') return `a:${actor.agentId}`;
  if (actor.kind === 'person') return `p:${actor.personId}`;
  return undefined;
}

/** HAMLET_DATABASE_REPLICA_URL's standbys, each change of their state logged (never a password). */
export function standbysOf(config: Config, logger: Logger): ReplicaOptions | undefined {
  if (!config.postgres.replicaUrls.length) return undefined;
  return {
    urls: config.postgres.replicaUrls,
    maxLagMs: config.postgres.replicaMaxLagMs,
    onState: (standby, state, why) =>
      state === 'ready'
        ? logger.info({ standby, why }, 'PostgreSQL standby takes reads')
        : logger.warn(
            { standby, state, why },
            'PostgreSQL standby takes no reads; reading on the primary',
          ),
    onProblem: (problem) => logger.warn({ problem }, 'recent writers channel'),
  };
}
