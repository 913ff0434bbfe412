// moderation.settings: the community's administrators change its moderation settings: the values
// given; the others keep what they were (or their defaults), the trust and sandbox groups value by
// value.
import { z } from 'zod';
import { requireCommunityAdmin } from '../authorization.ts';
import { parse } from '../validate.ts';
import type { UseCase } from '../writes/use-case.ts';
import {
  moderationSettings,
  moderationSettingsSchema,
  type ModerationSettings,
} from './settings.ts';

// The change as given: merged into the stored document (groups value by value) once it is read.
const contract = z.unknown();

export const moderationSettingsSet: UseCase<unknown, ModerationSettings, ModerationSettings> = {
  name: 'moderation.settings',
  contract,
  guard: ({ store, actor, community }) =>
    requireCommunityAdmin(store, actor, community, 'change moderation settings'),
  load: async ({ store, community }, input) => {
    const current = await moderationSettings(store, community);
    const patch = parse(moderationSettingsSchema.partial(), input);
    return parse(moderationSettingsSchema, {
      ...current,
      ...patch,
      trust: { ...current.trust, ...(input as { trust?: object } | null)?.trust },
      sandbox: { ...current.sandbox, ...(input as { sandbox?: object } | null)?.sandbox },
    });
  },
  policy: async () => ({ mode: 'apply', reason: 'administrator' }),
  apply: async ({ tx, community }, _input, next) => {
    await tx.community(community.id).moderation.setSettings(next);
    return next;
  },
  audit: () => ({ targets: {} }),
};
