// password.reset_request: a visitor asks for a reset link for an address. The answer is the same
// whether or not the address has an account (nobody learns which have one): only an existing
// account gets the mail, valid an hour, earlier links revoked.
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import { email } from '../fields.ts';
import type { UseCase } from '../writes/use-case.ts';
import { mailSite, queueReset, requireMail, type LinkDeps } from './link-mails.ts';

const contract = z.object({ email, site: mailSite });

export function passwordResetRequest(
  deps: LinkDeps,
): UseCase<z.output<typeof contract>, Person | undefined, { email: string }, null> {
  return {
    name: 'password.reset_request',
    contract,
    load: async ({ store }, input) => {
      requireMail(deps.mailer);
      return store.people.getByEmail(input.email);
    },
    policy: async () => ({ mode: 'apply', reason: 'asked_by_address' }),
    apply: async ({ tx }, input, person) => {
      if (person) await queueReset(tx, deps, person, undefined, input.site);
      return { email: input.email };
    },
    audit: () => ({ targets: {} }),
  };
}
