// community.settings: its administrators change a community's name, description, guidelines or
// visibility (the slug and the custom domain stay the operator's).
import { z } from 'zod';
import type { Community } from '../store/types.ts';
import { communityNotFound, requireCommunityAdmin } from './authorization.ts';
import { communityContract } from './community-create.ts';
import type { UseCase } from './writes/use-case.ts';

export const communitySettingsContract = communityContract
  .pick({ name: true, description: true, guidelines: true, visibility: true })
  .partial();
export type CommunitySettings = z.input<typeof communitySettingsContract>;

export const communitySettingsSet: UseCase<
  z.output<typeof communitySettingsContract>,
  void,
  Community
> = {
  name: 'community.settings',
  contract: communitySettingsContract,
  guard: ({ store, actor, community }) =>
    requireCommunityAdmin(store, actor, community, 'change the community settings'),
  load: async () => undefined,
  policy: async () => ({ mode: 'apply', reason: 'administrator' }),
  apply: async ({ tx, community }, data) => {
    const updated = await tx.communities.update(community.id, data);
    if (!updated) throw communityNotFound(community.slug);
    return updated;
  },
  audit: () => ({ targets: {} }),
};
