// The shape every write takes (one file per kind beside this one), run by the one runner
// (./runner.ts): who may attempt it at all (guard, before anything is read) → a contract (the
// payload's schema) → load what the write needs, once → a policy that refuses with what to do, or
// applies or queues the write with a named reason → the rows and outbox entries, inside the
// runner's transaction → what its audit entry keeps. Capabilities are declared, not separate
// runners: `idempotent` (an idempotency key replays the first answer), `queue` (a write its policy
// may hold for a moderator), `route` (what it loaded makes it another kind: a new topic in a
// knowledge base is an article).
import type { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import type { ContentEvent } from '../events.ts';
import type { AuditOutcome } from '../../store/identity.ts';

/** What every step of a write sees: who writes, where (null: no community, an account's own), the store. */
export type WriteContext<C extends Community | null = Community> = {
  actor: Actor;
  community: C;
  store: Store;
  config: Config;
  /** The time the write is judged at (edit windows, sanctions): now, unless the caller says. */
  now: Date;
};

/**
 * Inside the runner's transaction: `tx` (and `store`) is the transaction's store; `emit` holds an
 * event back until the commit.
 */
export type WriteStep<C extends Community | null = Community> = WriteContext<C> & {
  tx: Store;
  emit(event: ContentEvent): void;
};

/** Why a write applies at once or waits for a moderator: shown to the actor and kept. */
export type Decision = { mode: 'apply' | 'queue'; reason: string };

/**
 * What the audit entry of a write keeps: the ids it touched, and (its own entry) whether it only
 * queued, or recorded a refusal (`error` with the refusal's code).
 */
export type AuditRecord = {
  targets: Record<string, string | undefined>;
  /** The community the entry belongs to when the write made it (a new community: the call named none). */
  communityId?: string;
  outcome?: AuditOutcome;
  errorCode?: string;
};

export type UseCase<I, L, R, C extends Community | null = Community> = {
  /** The write's name: its audit action ("topic.create", "category.update", "vote.set"). */
  readonly name: string;
  /** The payload's schema: what its author gives. */
  readonly contract: z.ZodType<I>;
  /** An idempotency key replays the first answer (the ledger keeps it under `ledgerKind ?? name`). */
  readonly idempotent?: boolean;
  readonly ledgerKind?: string;
  /**
   * false: the write keeps no audit entry of its own, done or failed (a delivery the system makes
   * on its own: a notification mail, a digest); the entry of a call around it is still written.
   */
  readonly audited?: false;
  /** Refuses an actor who may not attempt this write at all, before the payload is looked at. */
  guard?(ctx: WriteContext<C>): Promise<void>;
  /** Reads what the write needs, once, before the policy; nothing is written (not_found says where to look). */
  load(ctx: WriteContext<C>, input: I): Promise<L>;
  /** The use case that takes the write over, given what was loaded (its guard and contract then apply). */
  route?(loaded: L): UseCase<I, L, R, C> | undefined;
  /** Refuses (a DomainError saying what to do), or applies or queues the write, with its reason. */
  policy(ctx: WriteContext<C>, input: I, loaded: L): Promise<Decision>;
  /** The rows and outbox entries. */
  apply(step: WriteStep<C>, input: I, loaded: L, reason: string): Promise<R>;
  /** The write held for a moderator (only a use case with this step may be queued). */
  queue?(step: WriteStep<C>, input: I, loaded: L, reason: string): Promise<R>;
  /** What the audit entry keeps of the answer. */
  audit(result: R, input: I): AuditRecord;
  /** An answer as the ledger returns it (older records may need reading into today's shape). */
  replayed?(stored: R): R;
};
