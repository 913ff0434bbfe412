// password.change: a signed-in person replaces their password, proving the current one. Every
// session of theirs ends (a stolen session does not survive the change); the face opens a fresh one.
import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { LIMITS, password } from '../fields.ts';
import type { UseCase } from '../writes/use-case.ts';
import type { Clock } from './auth.ts';
import { signedInTo } from './link-mails.ts';
import { hashPassword, verifyPassword } from './secrets.ts';

const contract = z.object({
  current_password: z.string().max(LIMITS.password.max),
  new_password: password,
});

export function passwordChange(
  clock: Clock,
): UseCase<z.output<typeof contract>, { hash: string }, void, null> {
  return {
    name: 'password.change',
    contract,
    guard: signedInTo('change your password'),
    load: async ({ store, actor }, input) => {
      const personId = actor.kind === 'person' ? actor.personId : '';
      const stored = await store.identity.credentials.getPasswordHash(personId);
      if (!stored || !(await verifyPassword(input.current_password, stored)))
        throw new DomainError(
          'forbidden',
          'The current password is not right. Type it again; nothing was changed.',
        );
      if (input.current_password === input.new_password)
        throw new DomainError(
          'invalid_argument',
          'The new password is the same as the current one. Choose another.',
        );
      return { hash: await hashPassword(input.new_password) };
    },
    policy: async () => ({ mode: 'apply', reason: 'current_password_proven' }),
    apply: async ({ tx, actor }, _input, { hash }) => {
      if (actor.kind !== 'person') return;
      await tx.identity.credentials.setPasswordHash(actor.personId, hash);
      await tx.identity.credentials.revokeSessionsOf(actor.personId, clock().toISOString());
    },
    audit: () => ({ targets: {} }),
  };
}
