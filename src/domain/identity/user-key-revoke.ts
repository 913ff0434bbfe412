// user_key.revoke: a person revokes a key of theirs by its id or prefix (the operator: any
// account's, by its address); it stops working at once.
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import { DomainError } from '../errors.ts';
import type { UseCase } from '../writes/use-case.ts';
import type { Clock } from './auth.ts';
import { keyOwner } from './user-key-records.ts';

const contract = z.object({ email: z.string().optional(), key: z.string() });

export function userKeyRevoke(
  clock: Clock,
): UseCase<z.output<typeof contract>, Person, { revoked: number; personId: string }, null> {
  return {
    name: 'user_key.revoke',
    contract,
    load: ({ store, actor }, input) => keyOwner(store, actor, input.email),
    policy: async () => ({ mode: 'apply', reason: 'own_key' }),
    apply: async ({ tx }, input, person) => {
      const revoked = await tx.identity.credentials.revokeUserKey(
        person.id,
        input.key.trim(),
        clock().toISOString(),
      );
      if (revoked === 0)
        throw new DomainError(
          'not_found',
          `No live user key "${input.key}" of ${person.email ?? person.displayName}. List keys to see their prefixes.`,
        );
      return { revoked, personId: person.id };
    },
    audit: () => ({ targets: {} }),
  };
}
