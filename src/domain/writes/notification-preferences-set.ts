// notification_preferences.set: how often the person wants e-mail about this community (at once,
// a daily or weekly digest, never). Stored here; the mail side reads it when it sends.
import { z } from 'zod';
import { EMAIL_FREQUENCIES } from '../notifications/vocabulary.ts';
import type { PersonalWrite } from './personal-write.ts';

const contract = z.object({ email: z.enum(EMAIL_FREQUENCIES) });

export const notificationPreferencesSet: PersonalWrite<typeof contract, null, { email: string }> = {
  kind: 'notification_preferences.set',
  contract,
  load: async () => null,
  apply: async (tx, person, community, input) => {
    await tx.community(community.id).notifications.setEmailPreference(person.personId, input.email);
    return { email: input.email };
  },
};
