// account.create: an account opens (sign-up by a visitor, or the operator's CLI): the person, their
// password's scrypt hash, and a verification mail for a visitor (the operator's accounts count as
// verified). A taken address is refused with AddressTaken, which sign-up answers like a success
// (./account-exists.ts tells the address's owner): nobody learns which addresses have an account.
import { z } from 'zod';
import { UniqueViolation } from '../../store/errors.ts';
import type { Person } from '../../store/types.ts';
import { DomainError } from '../errors.ts';
import { email, password } from '../fields.ts';
import { handleField } from '../writes/handle-set.ts';
import type { UseCase } from '../writes/use-case.ts';
import { mailSite, queueVerification, type LinkDeps } from './link-mails.ts';
import { hashPassword } from './secrets.ts';

export const openAccountContract = z.object({
  email,
  password,
  name: z.string().trim().min(1).max(100).optional(),
  /** The @handle chosen at sign-up; without one, a free one is made from the name. */
  handle: handleField.optional(),
  /** The site the person signed up on: the verification mail names it and links there. */
  site: mailSite,
});
export type OpenAccountInput = z.input<typeof openAccountContract>;

/** The address has an account already (the refusal the operator sees; sign-up answers alike). */
export class AddressTaken extends DomainError {
  constructor(readonly email: string) {
    super(
      'conflict',
      `An account with the e-mail "${email}" already exists. Sign in instead, or use another address.`,
    );
  }
}

export type OpenAccountDeps = {
  /** Whether anyone may open an account (HAMLET_SIGNUP); the operator's CLI always may. */
  signUp: boolean;
  /** Verification mails (absent: none are sent). */
  links?: LinkDeps;
};

export function accountOpen(
  deps: OpenAccountDeps,
): UseCase<z.output<typeof openAccountContract>, { passwordHash: string }, Person, null> {
  return {
    name: 'account.create',
    contract: openAccountContract,
    guard: async ({ actor }) => {
      if (actor.kind !== 'system' && actor.kind !== 'anonymous')
        throw new DomainError(
          'forbidden',
          'You are already signed in; sign out to create another account.',
        );
      if (actor.kind === 'anonymous' && !deps.signUp)
        throw new DomainError(
          'forbidden',
          'Sign-up is closed on this Hamlet: ask its operator to create your account (hamlet user create).',
        );
    },
    // The password is hashed whether or not the address is taken: the same work either way.
    load: async ({ store }, data) => {
      // A taken handle is refused whoever has the address: the answer tells nothing of addresses.
      if (data.handle && (await store.people.getByHandle(data.handle)))
        throw new DomainError(
          'conflict',
          `The handle "@${data.handle}" is taken. Choose another one (or leave it empty).`,
        );
      return { passwordHash: await hashPassword(data.password) };
    },
    policy: async ({ actor }) => ({
      mode: 'apply',
      reason: actor.kind === 'system' ? 'operator' : 'sign_up',
    }),
    apply: async ({ tx, actor }, data, { passwordHash }) => {
      let person: Person;
      try {
        person = await tx.people.create({
          displayName: data.name ?? data.email.split('@')[0]!,
          email: data.email,
          ...(data.handle ? { handle: data.handle } : {}),
        });
      } catch (err) {
        if (err instanceof UniqueViolation) throw new AddressTaken(data.email);
        throw err;
      }
      await tx.identity.credentials.setPasswordHash(person.id, passwordHash);
      // The operator's accounts count as verified; a visitor's get a link to prove the address.
      if (actor.kind === 'system') await tx.accountTokens.markVerified(person.id, data.email);
      else if (deps.links) await queueVerification(tx, deps.links, person, undefined, data.site);
      return person;
    },
    audit: (person) => ({ targets: { person_id: person.id } }),
  };
}
