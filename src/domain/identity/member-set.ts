// member.set: an administrator makes a person (by e-mail, with an account already) a member with a
// role, or changes their role, by the membership rule (./memberships.ts: decided in the transaction,
// the administrators locked).
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import type { Membership } from '../../store/identity.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { email } from '../fields.ts';
import { ROLES } from '../vocabulary.ts';
import type { UseCase } from '../writes/use-case.ts';
import { requirePerson } from './account-fields.ts';
import { changeMembership } from './memberships.ts';

const contract = z.object({ email, role: z.enum(ROLES) });

export const memberSet: UseCase<z.output<typeof contract>, Person, Membership> = {
  name: 'member.set',
  contract,
  guard: ({ store, actor, community }) =>
    requireCommunityAdmin(store, actor, community, 'manage members'),
  load: ({ store }, input) => requirePerson(store, input.email),
  policy: async () => ({ mode: 'apply', reason: 'membership_rule' }),
  apply: async ({ tx, actor, community }, input, person) =>
    (await changeMembership(tx, actor, community, person, input.email, input.role))!,
  audit: (membership) => ({ targets: { person_id: membership.personId } }),
};
