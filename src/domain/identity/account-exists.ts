// account.address_taken: someone signed up with an address that has an account. Its owner is told
// by mail (it may be them, having forgotten; or someone else trying it); nothing else changes, and
// the visitor's answer is the one of a sign-up that went well.
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import { email } from '../fields.ts';
import type { UseCase } from '../writes/use-case.ts';
import { mailSite, queueAddressTaken, type LinkDeps } from './link-mails.ts';

const contract = z.object({ email, site: mailSite });

export function accountExists(
  deps: LinkDeps,
): UseCase<z.output<typeof contract>, Person | undefined, { email: string }, null> {
  return {
    name: 'account.address_taken',
    contract,
    load: ({ store }, input) => store.people.getByEmail(input.email),
    policy: async () => ({ mode: 'apply', reason: 'address_taken' }),
    apply: async ({ tx }, input, owner) => {
      if (owner) await queueAddressTaken(tx, deps, owner, input.site);
      return { email: input.email };
    },
    audit: () => ({ targets: {} }),
  };
}
