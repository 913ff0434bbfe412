// The one runner every write goes through (the shape of a write is ./use-case.ts). Its steps, in
// order, for any use case:
//   contract (the payload parsed) → replay (an idempotency key already answered: that answer,
//   before anything is read) → load (what the write needs, once) → policy (refused with what to
//   do, or applied / queued with a named reason) → one transaction {idempotency claim, the rows or
//   the queued write, outbox entries, the audit entry, the ledger's answer} → events after the
//   commit. A failure is audited after the rollback. A concurrent retry that lost the race to the
//   same key gets the winner's answer.
import type { MaintenanceGate } from '../maintenance.ts';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import { UniqueViolation } from '../../store/errors.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import type { ContentEvent, ContentEvents } from '../events.ts';
import { idempotencyKey as idempotencyKeyField } from '../fields.ts';
import { actorFields, type AuditService, errorOutcome } from '../identity/audit.ts';
import { parse } from '../validate.ts';
import { IdempotencyLedger } from './idempotency.ts';
import type { Community } from '../../store/types.ts';
import type { AuditRecord, UseCase, WriteContext, WriteStep } from './use-case.ts';

/**
 * The audit entry of the call around a write (the operations pipeline's): the runner writes it in
 * the write's transaction, with what the write touched, and marks it recorded once committed; a
 * call that fails is recorded by the caller. Without one the runner writes an entry of its own
 * (action: the use case's name).
 */
export type CallAudit = {
  communityId: string | null;
  targets: Record<string, string | undefined>;
  /** The call's action ("tool:create_topic"); the use case's name when absent. */
  action?: string;
  ip?: string | null;
  /** Set by the runner once the entry is written (committed with the write). */
  recorded?: boolean;
};

/** What the runner's audit steps read of a use case. */
type Audited = { name: string; audited?: false };

export type RunOptions = {
  idempotencyKey?: string | null;
  ip?: string | null;
  audit?: CallAudit;
  /** The time to judge the write at (default: now). */
  now?: Date;
};

export type RunnerDeps = {
  store: Store;
  config: Config;
  /** Receives the events of a write once it has committed. */
  events: ContentEvents;
  audit: AuditService;
  /** Maintenance mode: while on, every write is refused (503) before anything is read. */
  maintenance?: MaintenanceGate;
};

/** A write checked and loaded (begin), waiting for its policy and transaction (finish). */
export type Begun<R> =
  | { answered: R }
  | {
      answered?: undefined;
      run(): Promise<R>;
      /** The use case that runs it (after routing), its payload and what it loaded. */
      useCase: UseCase<unknown, unknown, R, never>;
      input: unknown;
      loaded: unknown;
    };

export class WriteRunner {
  constructor(private readonly deps: RunnerDeps) {}

  /** Runs `useCase` for `actor` in `community` with `payload` (not yet checked). */
  async run<I, L, R, C extends Community | null>(
    useCase: UseCase<I, L, R, C>,
    actor: Actor,
    community: C,
    payload: unknown,
    options: RunOptions = {},
  ): Promise<R> {
    const begun = await this.begin(useCase, actor, community, payload, options);
    return 'run' in begun ? begun.run() : begun.answered;
  }

  /**
   * The steps before the policy: guard → contract → replay (the answer, when the key has one) →
   * load → route. A caller may look around before `run()` (create_topic's similar questions).
   */
  async begin<I, L, R, C extends Community | null>(
    first: UseCase<I, L, R, C>,
    actor: Actor,
    community: C,
    payload: unknown,
    options: RunOptions = {},
  ): Promise<Begun<R>> {
    const { store } = this.deps;
    this.deps.maintenance?.refuseWrites();
    const ctx: WriteContext<C> = {
      actor,
      community,
      store,
      config: this.deps.config,
      now: options.now ?? new Date(),
    };
    let useCase = first;
    try {
      await useCase.guard?.(ctx);
      let input = parse(useCase.contract, payload);
      const ledger = this.ledger(useCase, ctx, payload, options);
      const previous = await ledger?.replay(store);
      if (previous !== undefined) {
        const answered = useCase.replayed?.(previous) ?? previous;
        await this.replayAudited(useCase, ctx, options, useCase.audit(answered, input));
        return { answered };
      }
      const loaded = await useCase.load(ctx, input);
      const to = useCase.route?.(loaded);
      if (to) {
        useCase = to;
        await useCase.guard?.(ctx);
        input = parse(useCase.contract, payload);
      }
      const chosen = useCase;
      return {
        useCase: chosen as unknown as UseCase<unknown, unknown, R, never>,
        input,
        loaded,
        run: () =>
          this.failing(chosen, ctx, options, () =>
            this.finish(chosen, ctx, input, loaded, ledger, options),
          ),
      };
    } catch (err) {
      await this.failed(useCase, ctx, options, err);
      throw err;
    }
  }

  /** policy → transaction {claim, rows or queue, ledger, audit} → events after the commit. */
  private async finish<I, L, R, C extends Community | null>(
    useCase: UseCase<I, L, R, C>,
    ctx: WriteContext<C>,
    input: I,
    loaded: L,
    ledger: IdempotencyLedger<R> | undefined,
    options: RunOptions,
  ): Promise<R> {
    const { store } = this.deps;
    const decision = await useCase.policy(ctx, input, loaded);
    if (decision.mode === 'queue' && !useCase.queue)
      throw new Error(`${useCase.name}: its policy queued a write it cannot queue`);
    const events: ContentEvent[] = [];
    try {
      const result = await store.transaction(async (tx) => {
        const again = await ledger?.replay(tx); // a concurrent retry may have just finished
        if (again !== undefined) return useCase.replayed?.(again) ?? again;
        await ledger?.claim(tx);
        const step: WriteStep<C> = { ...ctx, store: tx, tx, emit: (e) => events.push(e) };
        const out =
          decision.mode === 'queue'
            ? await useCase.queue!(step, input, loaded, decision.reason)
            : await useCase.apply(step, input, loaded, decision.reason);
        await ledger?.complete(tx, out);
        await this.audited(tx, useCase, ctx, options, useCase.audit(out, input));
        return out;
      });
      if (options.audit) options.audit.recorded = true;
      for (const e of events) this.deps.events.emit(e);
      return result;
    } catch (err) {
      // Two retries raced (PostgreSQL): the other one committed first and ours was rolled back.
      const lost =
        err instanceof UniqueViolation || (err instanceof DomainError && err.code === 'conflict');
      const winner = lost ? await ledger?.replay(store) : undefined;
      if (winner !== undefined) return useCase.replayed?.(winner) ?? winner;
      throw err;
    }
  }

  /** `body`, its failure audited (after the rollback). */
  private async failing<R, C extends Community | null>(
    useCase: Audited,
    ctx: WriteContext<C>,
    options: RunOptions,
    body: () => Promise<R>,
  ): Promise<R> {
    try {
      return await body();
    } catch (err) {
      await this.failed(useCase, ctx, options, err);
      throw err;
    }
  }

  /** A replayed answer's audit entry: added to the call's, or the runner's own. */
  private async replayAudited<C extends Community | null>(
    useCase: Audited,
    ctx: WriteContext<C>,
    options: RunOptions,
    record: AuditRecord,
  ): Promise<void> {
    if (options.audit) {
      Object.assign(options.audit.targets, record.targets);
      return;
    }
    if (useCase.audited === false) return;
    await this.deps.audit.record(ctx.actor, {
      communityId: record.communityId ?? ctx.community?.id ?? null,
      action: useCase.name,
      targets: record.targets,
      outcome: record.outcome ?? 'ok',
      ip: options.ip,
    });
  }

  /** A failed write's audit entry: the runner's own (a call's is the caller's to write). */
  private async failed<C extends Community | null>(
    useCase: Audited,
    ctx: WriteContext<C>,
    options: RunOptions,
    err: unknown,
  ): Promise<void> {
    if (options.audit || useCase.audited === false) return;
    await this.deps.audit.record(ctx.actor, {
      communityId: ctx.community?.id ?? null,
      action: useCase.name,
      ip: options.ip,
      ...errorOutcome(err),
    });
  }

  /** The idempotency ledger of this request, when the use case replays and a key was sent. */
  private ledger<I, L, R, C extends Community | null>(
    useCase: UseCase<I, L, R, C>,
    ctx: WriteContext<C>,
    payload: unknown,
    options: RunOptions,
  ): IdempotencyLedger<R> | undefined {
    if (!useCase.idempotent || options.idempotencyKey == null || !ctx.community) return undefined;
    const { idempotency_key: key } = parse(z.object({ idempotency_key: idempotencyKeyField }), {
      idempotency_key: options.idempotencyKey,
    });
    return new IdempotencyLedger<R>(ctx.community, ctx.actor, key, {
      kind: useCase.ledgerKind ?? useCase.name,
      payload,
    });
  }

  /**
   * The audit entry of a write that went well, in its transaction: the call's (what the write
   * touched added to it; "ok", as every call that succeeded), or its own (action: the use case's).
   */
  private async audited<C extends Community | null>(
    tx: Store,
    useCase: Audited,
    ctx: WriteContext<C>,
    options: RunOptions,
    record: AuditRecord,
  ): Promise<void> {
    const call = options.audit;
    if (!call && useCase.audited === false) return;
    if (call) Object.assign(call.targets, record.targets);
    if (call && record.communityId) call.communityId = record.communityId;
    const targets = Object.fromEntries(
      Object.entries(call?.targets ?? record.targets).filter(([, v]) => typeof v === 'string'),
    ) as Record<string, string>;
    await tx.identity.audit.record({
      communityId: call ? call.communityId : (record.communityId ?? ctx.community?.id ?? null),
      ...actorFields(ctx.actor),
      action: call?.action ?? useCase.name,
      targets,
      outcome: record.outcome === 'error' ? 'error' : call ? 'ok' : (record.outcome ?? 'ok'),
      errorCode: record.errorCode ?? null,
      ip: (call ? call.ip : options.ip) ?? null,
    });
  }
}
