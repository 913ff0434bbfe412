// sanction.lift: a moderator ends the sanction on a person or an agent now (`lifted` false: there was
// none).
import { z } from 'zod';
import type { Sanction } from '../../store/moderation.ts';
import type { UseCase } from '../writes/use-case.ts';
import { logDecision } from './log-entry.ts';
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
  apply: async ({ tx, actor, community }, _input, subject) => {
    const lifted = await tx
      .community(community.id)
      .moderation.clearSanction(subject.kind, subject.id);
    if (lifted)
      await logDecision(tx, community, actor, {
        action: 'lift',
        targetTitle: `${subject.name}${subject.kind === 'agent' ? ' (agent)' : ''}`,
        detail: 'suspension or silence lifted',
      });
    return { lifted };
  },
  audit: () => ({ targets: {} }),
};
