// password.reset_send: a community's administrator sends a member a reset link (valid an hour,
// earlier links revoked), by the member's address.
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { email } from '../fields.ts';
import type { UseCase } from '../writes/use-case.ts';
import { queueReset, requireMail, type LinkDeps } from './link-mails.ts';

const contract = z.object({ email });

export function passwordResetSend(
  deps: LinkDeps,
): UseCase<z.output<typeof contract>, Person, { email: string; personId: string }> {
  return {
    name: 'password.reset_send',
    contract,
    guard: ({ store, actor, community }) =>
      requireCommunityAdmin(store, actor, community, 'send a member a password reset link'),
    load: async ({ store, community }, input) => {
      requireMail(deps.mailer);
      const person = await store.people.getByEmail(input.email);
      const member = person && (await store.community(community.id).access.members.get(person.id));
      if (!person || !member)
        throw new DomainError(
          'not_found',
          `No member of "${community.slug}" has the e-mail "${input.email}". Check the address on the members page.`,
        );
      return person;
    },
    policy: async () => ({ mode: 'apply', reason: 'administrator' }),
    apply: async ({ tx, community }, input, person) => {
      await queueReset(tx, deps, person, community.id);
      return { email: input.email, personId: person.id };
    },
    audit: (sent) => ({ targets: { person_id: sent.personId } }),
  };
}
