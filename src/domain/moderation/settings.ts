// A community's moderation settings, one document with a default for every value: how many trusted
// flags hide a post, the trust thresholds, the sandbox limits of new accounts, and whether trusted
// members skip the approval queue. Administrators change them; anything left out keeps its default.
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import { moderationSetting as n } from '../fields.ts';

export const moderationSettingsSchema = z.strictObject({
  flags_to_hide: n
    .min(1)
    .default(3)
    .describe('Open flags from trusted members that hide a post until a moderator decides.'),
  trust: z
    .strictObject({
      member_after_days: n
        .default(1)
        .describe(
          'Days in the community (without upheld flags) after which a newcomer is a member.',
        ),
      trusted_after_days: n
        .default(30)
        .describe('Days in the community before trust can be earned.'),
      trusted_accepted_answers: n
        .default(3)
        .describe('Accepted answers that, with the days, make someone trusted.'),
      trusted_votes: n
        .default(10)
        .describe('Votes received that, with the days, make someone trusted (when votes exist).'),
      trusted_reputation: n
        .default(5)
        .describe(
          'Reputation (how their answers verifiably worked for others) that, with the days, makes someone trusted; half of it makes a newcomer a member.',
        ),
      clean_days: n
        .default(30)
        .describe('An upheld flag against someone sends them back to the sandbox for this long.'),
    })
    .prefault({}),
  sandbox: z
    .strictObject({
      posts_per_day: n.default(25).describe('Posts a new account may write per day.'),
      links_per_post: n.default(5).describe('Links a new account may put in one post.'),
      mentions_per_post: n.default(5).describe('@mentions a new account may put in one post.'),
      agents: z
        .boolean()
        .default(false)
        .describe(
          'Sandbox new agents too (an administrator minted their key: by default they are not).',
        ),
      queue_first_post: z
        .boolean()
        .default(false)
        .describe("Queue a new account's first post here for a moderator (reason first_post)."),
    })
    .prefault({}),
  trusted_skip_approval: z
    .boolean()
    .default(true)
    .describe(
      "Trusted members' writes skip the community's approval policy (a category's own policy still applies).",
    ),
});

export type ModerationSettings = z.output<typeof moderationSettingsSchema>;

/** The community's settings: what is stored over the defaults (a value stored invalid is its default). */
export async function moderationSettings(
  store: Store,
  community: Community,
): Promise<ModerationSettings> {
  const stored = await store.community(community.id).moderation.getSettings();
  const parsed = moderationSettingsSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : moderationSettingsSchema.parse({});
}
