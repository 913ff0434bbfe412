// sanction.set: a moderator suspends or silences a person or an agent of the community for a number
// of days, with a reason they are shown; never another moderator or administrator. A new sanction
// replaces the one in force.
import { z } from 'zod';
import type { Sanction } from '../../store/moderation.ts';
import { authorOf, roleAtLeast } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { reason as reasonField, recordId, sanctionDays } from '../fields.ts';
import type { UseCase } from '../writes/use-case.ts';
import { logDecision } from './log-entry.ts';
import { requireSanctioner, sanctionSubject } from './sanction-subject.ts';
import { SANCTION_MODES } from './vocabulary.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export const sanctionSubjectFields = {
  subject_kind: z.enum(['person', 'agent']),
  subject: recordId.describe("A person's e-mail address or id, or an agent's name or id."),
};
export const sanctionSchema = z.object({
  ...sanctionSubjectFields,
  mode: z.enum(SANCTION_MODES),
  days: sanctionDays,
  reason: reasonField,
});

export function sanctionSet(
  clock: () => Date,
): UseCase<z.output<typeof sanctionSchema>, Sanction['subject'], Sanction> {
  return {
    name: 'sanction.set',
    contract: sanctionSchema,
    guard: ({ store, actor, community }) => requireSanctioner(store, actor, community),
    load: async ({ store, community }, input) => {
      const subject = await sanctionSubject(store, community, input.subject_kind, input.subject);
      if (subject.kind === 'person') {
        const member = await store.community(community.id).access.members.get(subject.id);
        if (member && roleAtLeast(member.role as never, 'moderator'))
          throw new DomainError(
            'forbidden',
            `${subject.name} is a ${member.role} of "${community.slug}": change their role first.`,
          );
      }
      return subject;
    },
    policy: async () => ({ mode: 'apply', reason: 'moderator' }),
    apply: async ({ tx, actor, community }, input, subject) => {
      const now = clock();
      const sanction: Sanction = {
        subject,
        mode: input.mode,
        reason: input.reason,
        endsAt: new Date(now.getTime() + input.days * DAY_MS).toISOString(),
        byName: authorOf(actor).name,
        createdAt: now.toISOString(),
      };
      await tx.community(community.id).moderation.setSanction(sanction);
      await logDecision(tx, community, actor, {
        action: input.mode === 'suspended' ? 'suspend' : 'silence',
        targetTitle: `${subject.name}${subject.kind === 'agent' ? ' (agent)' : ''}`,
        detail: `for ${input.days} day${input.days === 1 ? '' : 's'}`,
        reason: input.reason,
      });
      return sanction;
    },
    audit: (s) => ({
      targets: { subject_kind: s.subject.kind, subject_id: s.subject.id, mode: s.mode },
    }),
  };
}
