// A person's writes about themselves (drafts, bookmarks, notification settings, read marks, their
// handle) as use cases of the one runner (./runner.ts): who may (a person who may read the
// community, unless the kind says more) → contract → load what it needs, once → the policy, whose
// one reason is "self" (a person changes only what is their own: nobody queues or approves it) →
// the rows in the runner's transaction → the audit entry, like every write. Each kind is a file
// beside this one and gives its name, contract, load, rows and what its audit entry keeps.
import type { z } from 'zod';
import type { PersonActor } from '../actor.ts';
import { requirePersonHere } from '../notifications/person.ts';
import type { UseCase, WriteContext, WriteStep } from './use-case.ts';

/** What a personal write answers: its own result, with the reason it applied. */
export type Personal<O> = O & { reason: 'self' };

/** One kind of personal write. */
export type PersonalKind<I, L, O> = {
  /** The audit's name of the write ("draft.save"). */
  name: string;
  contract: z.ZodType<I>;
  /** Who may attempt it, before the payload is read (default: a person who may read here). */
  guard?(ctx: WriteContext): void;
  /** Reads what the rows need, once, outside the transaction (not_found says where to look). */
  load(ctx: WriteContext, person: PersonActor, input: I): Promise<L>;
  /** The rows, on the transaction. */
  apply(step: WriteStep, person: PersonActor, input: I, loaded: L): Promise<O>;
  /** The ids the audit entry keeps. */
  targets(result: O, input: I): Record<string, string | undefined>;
};

export type PersonalUseCase<I, L, O> = UseCase<I, L, Personal<O>>;

/** The person writing (the guard let only a person through). */
function personOf(ctx: WriteContext): PersonActor {
  return requirePersonHere(ctx.actor, ctx.community);
}

/** The use case of a personal kind. */
export function personalWrite<I, L, O>(kind: PersonalKind<I, L, O>): PersonalUseCase<I, L, O> {
  return {
    name: kind.name,
    contract: kind.contract,
    guard: async (ctx) => {
      if (kind.guard) kind.guard(ctx);
      else personOf(ctx);
    },
    load: (ctx, input) => kind.load(ctx, personOf(ctx), input),
    policy: async () => ({ mode: 'apply', reason: 'self' }),
    apply: async (step, input, loaded) => ({
      ...(await kind.apply(step, personOf(step), input, loaded)),
      reason: 'self' as const,
    }),
    audit: (result, input) => ({ targets: { write: kind.name, ...kind.targets(result, input) } }),
  };
}
