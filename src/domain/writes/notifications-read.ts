// notifications.read: the person marks some of their notifications here read, or all of them.
import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { recordId } from '../fields.ts';
import { personalWrite } from './personal-write.ts';

export const notificationsRead = personalWrite({
  name: 'notifications.read',
  contract: z.object({
    ids: z.array(recordId).max(100, 'at most 100 ids at once').optional(),
    all: z.boolean().optional(),
  }),
  load: async (_ctx, _person, input) => {
    if (!input.all && !input.ids?.length)
      throw new DomainError(
        'invalid_argument',
        'Say which notifications to mark read: their "ids", or "all": true.',
      );
    return null;
  },
  apply: async (step, person, input) => ({
    marked: await step.tx
      .community(step.community.id)
      .notifications.markRead(
        person.personId,
        input.all ? null : (input.ids ?? []),
        new Date().toISOString(),
      ),
  }),
  targets: () => ({}),
});
