// sanction.lift: a moderator ends the sanction on a person or an agent now (`lifted` false: there was
// none).
import { z } from 'zod';
import type { Sanction } from '../../store/moderation.ts';
import type { UseCase } from '../writes/use-case.ts';
import { sanctionSubjectFields } from './sanction-set.ts';
import { requireSanctioner, sanctionSubject } from './sanction-subject.ts';

export const liftSchema = z.object(sanctionSubjectFields);

export const sanctionLift: UseCase<
  z.output<typeof liftSchema>,
  Sanction['subject'],
  { lifted: boolean }
> = {
  name: 'sanction.lift',
  contract: liftSchema,
  guard: ({ store, actor, community }) => requireSanctioner(store, actor, community),
  load: ({ store, community }, input) =>
    sanctionSubject(store, community, input.subject_kind, input.subject),
  policy: async () => ({ mode: 'apply', reason: 'moderator' }),
  apply: async ({ tx, community }, _input, subject) => ({
    lifted: await tx.community(community.id).moderation.clearSanction(subject.kind, subject.id),
  }),
  audit: () => ({ targets: {} }),
};
