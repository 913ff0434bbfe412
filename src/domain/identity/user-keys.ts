// People's own keys (`hmlt_u_…`, shown once): a person mints, lists and revokes their own; the
// operator (system) does it for any account by its e-mail address. Only the key's hash is stored.
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Person } from '../../store/types.ts';
import type { UserKeyRecord } from '../../store/identity.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { email as emailSchema, expiresInDays } from '../fields.ts';
import { parse } from '../validate.ts';
import type { Clock } from './auth.ts';
import { requirePerson } from './account-fields.ts';
import { mintKey } from './secrets.ts';

const expiresSchema = expiresInDays.optional();

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

export class UserKeys {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

  /** A person mints a key for themselves; the operator (system) may mint one for any e-mail. */
  async mintUserKey(
    actor: Actor,
    input: { email?: string; expiresInDays?: number },
  ): Promise<{ key: string; record: KeyView }> {
    const expiresInDays = parse(expiresSchema, input.expiresInDays);
    const person = await this.keyOwner(actor, input.email);
    const minted = mintKey('user');
    const record = await this.store.identity.credentials.createUserKey({
      personId: person.id,
      prefix: minted.prefix,
      keyHash: minted.hash,
      expiresAt: expiryFrom(this.clock(), expiresInDays),
    });
    this.logger?.info(
      { event: 'user_key.minted', personId: person.id, keyPrefix: record.prefix },
      'user key minted',
    );
    return { key: minted.key, record: keyView(record) };
  }

  async listUserKeys(actor: Actor, input: { email?: string } = {}): Promise<KeyView[]> {
    const person = await this.keyOwner(actor, input.email);
    return (await this.store.identity.credentials.listUserKeys(person.id)).map(keyView);
  }

  async revokeUserKey(actor: Actor, input: { email?: string; key: string }): Promise<number> {
    const person = await this.keyOwner(actor, input.email);
    const n = await this.store.identity.credentials.revokeUserKey(
      person.id,
      input.key.trim(),
      this.clock().toISOString(),
    );
    if (n === 0)
      throw new DomainError(
        'not_found',
        `No live user key "${input.key}" of ${person.email ?? person.displayName}. List keys to see their prefixes.`,
      );
    this.logger?.info(
      { event: 'user_key.revoked', personId: person.id, keyPrefix: input.key.slice(0, 14) },
      'user key revoked',
    );
    return n;
  }

  private async keyOwner(actor: Actor, email: string | undefined): Promise<Person> {
    if (actor.kind === 'system') {
      if (!email)
        throw new DomainError('invalid_argument', 'Say whose key: pass the e-mail of the account.');
      return requirePerson(this.store, parse(emailSchema, email));
    }
    if (actor.kind !== 'person')
      throw new DomainError('unauthorized', 'Sign in to manage your user keys.');
    const person = await this.store.people.getById(actor.personId);
    if (!person) throw new DomainError('not_found', 'Your account no longer exists.');
    if (email && person.email !== email.trim().toLowerCase())
      throw new DomainError('forbidden', 'You can only manage your own user keys.');
    return person;
  }
}
