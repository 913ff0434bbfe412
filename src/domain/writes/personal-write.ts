// The shape of a person's writes about themselves (notification settings, read marks, their
// handle): a contract (the input's schema) → load what it needs, once → policy, whose one reason
// is "self" (a person changes only their own settings: nobody queues or approves them) → one
// transaction with the rows. Each kind is a file beside this one.
import type { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor, PersonActor } from '../actor.ts';
import { requirePersonHere } from '../notifications/person.ts';
import { parse } from '../validate.ts';

export type PersonalWrite<S extends z.ZodType, L, O> = {
  kind: string;
  contract: S;
  load(store: Store, community: Community, input: z.output<S>): Promise<L>;
  apply(
    tx: Store,
    person: PersonActor,
    community: Community,
    input: z.output<S>,
    loaded: L,
  ): Promise<O>;
};

/** Runs one: the person is checked first (signed in, may read the community), then the steps. */
export async function runPersonalWrite<S extends z.ZodType, L, O>(
  store: Store,
  actor: Actor,
  community: Community,
  write: PersonalWrite<S, L, O>,
  input: unknown,
): Promise<O & { reason: 'self' }> {
  const person = requirePersonHere(actor, community);
  const data = parse(write.contract, input);
  const loaded = await write.load(store, community, data);
  const out = await store.transaction((tx) => write.apply(tx, person, community, data, loaded));
  return { ...out, reason: 'self' };
}
