// notification_preferences.set: how often the person wants e-mail about this community (at once,
// a daily or weekly digest, never). Stored here; the mail side reads it when it sends.
import { z } from 'zod';
import { EMAIL_FREQUENCIES } from '../notifications/vocabulary.ts';
import { personalWrite } from './personal-write.ts';

export const notificationPreferencesSet = personalWrite({
  name: 'notification_preferences.set',
  contract: z.object({ email: z.enum(EMAIL_FREQUENCIES) }),
  load: async () => null,
  apply: async (step, person, input) => {
    await step.tx
      .community(step.community.id)
      .notifications.setEmailPreference(person.personId, input.email);
    return { email: input.email };
  },
  targets: () => ({}),
});
