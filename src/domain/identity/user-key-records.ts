// What the user-key writes and reads share: a key's view (never the key), when a key expires, and
// whose keys an actor manages (a person their own; the operator any account's, by its address).
import type { Store } from '../../store/repositories.ts';
import type { Person } from '../../store/types.ts';
import type { UserKeyRecord } from '../../store/identity.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { email as emailSchema } from '../fields.ts';
import { parse } from '../validate.ts';
import { requirePerson } from './account-fields.ts';

export type KeyView = {
  id: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
};

export function keyView(k: UserKeyRecord | KeyView): KeyView {
  return {
    id: k.id,
    prefix: k.prefix,
    createdAt: k.createdAt,
    expiresAt: k.expiresAt,
    revokedAt: k.revokedAt,
    lastUsedAt: k.lastUsedAt,
  };
}

export function expiryFrom(now: Date, days: number | undefined): string | null {
  return days === undefined ? null : new Date(now.getTime() + days * 86_400_000).toISOString();
}

/** The account whose keys `actor` manages: their own, or (the operator) the one of `email`. */
export async function keyOwner(
  store: Store,
  actor: Actor,
  email: string | undefined,
): Promise<Person> {
  if (actor.kind === 'system') {
    if (!email)
      throw new DomainError('invalid_argument', 'Say whose key: pass the e-mail of the account.');
    return requirePerson(store, parse(emailSchema, email));
  }
  if (actor.kind !== 'person')
    throw new DomainError('unauthorized', 'Sign in to manage your user keys.');
  const person = await store.people.getById(actor.personId);
  if (!person) throw new DomainError('not_found', 'Your account no longer exists.');
  if (email && person.email !== email.trim().toLowerCase())
    throw new DomainError('forbidden', 'You can only manage your own user keys.');
  return person;
}
