// notifications.read: the person marks some of their notifications here read, or all of them.
import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { recordId } from '../fields.ts';
import type { PersonalWrite } from './personal-write.ts';

const contract = z.object({
  ids: z.array(recordId).max(100, 'at most 100 ids at once').optional(),
  all: z.boolean().optional(),
});

export const notificationsRead: PersonalWrite<typeof contract, null, { marked: number }> = {
  kind: 'notifications.read',
  contract,
  load: async (_store, _community, input) => {
    if (!input.all && !input.ids?.length)
      throw new DomainError(
        'invalid_argument',
        'Say which notifications to mark read: their "ids", or "all": true.',
      );
    return null;
  },
  apply: async (tx, person, community, input) => ({
    marked: await tx
      .community(community.id)
      .notifications.markRead(
        person.personId,
        input.all ? null : (input.ids ?? []),
        new Date().toISOString(),
      ),
  }),
};
