// password.set: the operator (or the account's own person) sets an account's password by its
// address; every session of the account ends.
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import { DomainError } from '../errors.ts';
import { email, password } from '../fields.ts';
import type { UseCase } from '../writes/use-case.ts';
import { requirePerson } from './account-fields.ts';
import { hashPassword } from './secrets.ts';

const contract = z.object({ email, password });

type Loaded = { person: Person; hash: string };

export const passwordSet: UseCase<z.output<typeof contract>, Loaded, { personId: string }, null> = {
  name: 'password.set',
  contract,
  // Who may is known once the account is read; the password is hashed only for one who may.
  load: async ({ store, actor }, input) => {
    const person = await requirePerson(store, input.email);
    if (actor.kind !== 'system' && !(actor.kind === 'person' && actor.personId === person.id))
      throw new DomainError('forbidden', 'You can only change your own password.');
    return { person, hash: await hashPassword(input.password) };
  },
  policy: async () => ({ mode: 'apply', reason: 'password_set' }),
  apply: async ({ tx }, _input, { person, hash }) => {
    await tx.identity.credentials.setPasswordHash(person.id, hash);
    await tx.identity.credentials.revokeSessionsOf(person.id);
    return { personId: person.id };
  },
  audit: (result) => ({ targets: { person_id: result.personId } }),
};
