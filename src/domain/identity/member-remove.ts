// member.remove: an administrator removes a person from the community (a private community becomes
// invisible to them), by the membership rule (./memberships.ts): only an owner removes an owner, and
// the last owner stays.
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { email } from '../fields.ts';
import type { UseCase } from '../writes/use-case.ts';
import { requirePerson } from './account-fields.ts';
import { changeMembership } from './memberships.ts';

const contract = z.object({ email });

export const memberRemove: UseCase<z.output<typeof contract>, Person, { personId: string }> = {
  name: 'member.remove',
  contract,
  guard: ({ store, actor, community }) =>
    requireCommunityAdmin(store, actor, community, 'manage members'),
  load: ({ store }, input) => requirePerson(store, input.email),
  policy: async () => ({ mode: 'apply', reason: 'membership_rule' }),
  apply: async ({ tx, actor, community }, input, person) => {
    await changeMembership(tx, actor, community, person, input.email, undefined);
    return { personId: person.id };
  },
  audit: (removed) => ({ targets: { person_id: removed.personId } }),
};
