// email.change_request: a signed-in person asks to sign in with another address, proving their
// password: a link (valid a day, earlier ones revoked) goes to the new address. An address that has
// an account gets the address-taken mail instead, and the answer is the same.
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import { emailChangeMail } from '../mail/account-mails.ts';
import { DomainError } from '../errors.ts';
import { email, LIMITS } from '../fields.ts';
import type { UseCase } from '../writes/use-case.ts';
import {
  EMAIL_CHANGE_TTL_MS,
  newLinkToken,
  nowMs,
  personWithAddress,
  queueAddressTaken,
  requireMail,
  signedInTo,
  siteOf,
  type LinkDeps,
} from './link-mails.ts';
import { verifyPassword } from './secrets.ts';

const contract = z.object({
  new_email: email,
  current_password: z.string().max(LIMITS.password.max),
});

/** The person asking, and the account that has the new address already, if one does. */
type Loaded = { person: Person; owner: Person | undefined };

export function emailChangeRequest(
  deps: LinkDeps,
): UseCase<z.output<typeof contract>, Loaded, { email: string }, null> {
  return {
    name: 'email.change_request',
    contract,
    guard: signedInTo('change your e-mail address'),
    load: async ({ store, actor }, input) => {
      const person = await personWithAddress(store, actor.kind === 'person' ? actor.personId : '');
      requireMail(deps.mailer);
      const stored = await store.identity.credentials.getPasswordHash(person.id);
      if (!stored || !(await verifyPassword(input.current_password, stored)))
        throw new DomainError(
          'forbidden',
          'The current password is not right; nothing was changed.',
        );
      if (input.new_email === person.email)
        throw new DomainError('invalid_argument', `${input.new_email} is already your address.`);
      return { person, owner: await store.people.getByEmail(input.new_email) };
    },
    policy: async (_ctx, _input, { owner }) => ({
      mode: 'apply',
      reason: owner ? 'address_taken' : 'password_proven',
    }),
    apply: async ({ tx }, input, { person, owner }) => {
      if (owner) {
        await queueAddressTaken(tx, deps, owner);
        return { email: input.new_email };
      }
      await tx.accountTokens.revokeAll(person.id, 'email_change', nowMs(deps));
      const token = await newLinkToken(
        tx,
        deps,
        person.id,
        'email_change',
        input.new_email,
        EMAIL_CHANGE_TTL_MS,
      );
      const url = deps.mailer.link(`/email/confirm?token=${token}`);
      const m = emailChangeMail(siteOf(deps.mailer), url, EMAIL_CHANGE_TTL_MS / 3_600_000);
      await deps.mailer.queue(tx, { to: { email: input.new_email }, ...m });
      return { email: input.new_email };
    },
    audit: () => ({ targets: {} }),
  };
}
