// post.flag: a person or an agent who may write here flags a post (spam, off topic, …; "other" with a
// note). One flag per flagger and post: a second changes nothing and says so. A new flag is a
// post.flagged webhook event, in the flag's transaction. Whether enough trusted flags hide the post
// is counted after the commit (./flags.ts), so that of concurrent flaggers the last sees them all.
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { FlagRecord } from '../../store/moderation.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import { authorOf, requireWrite } from '../authorization.ts';
import { categoryOf } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { reason as reasonField, recordId } from '../fields.ts';
import { postView, topicView } from '../views.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import type { UseCase } from '../writes/use-case.ts';
import { flagTarget, type FlagTarget } from './flag-target.ts';
import { moderationSettings, type ModerationSettings } from './settings.ts';
import { trustOf } from './trust.ts';
import { FLAG_REASONS } from './vocabulary.ts';

export const flagSchema = z
  .object({
    post: recordId,
    reason: z.enum(FLAG_REASONS),
    note: reasonField.optional(),
  })
  .refine((f) => f.reason !== 'other' || f.note, {
    message: 'A flag with reason "other" needs a note saying what is wrong with the post.',
    path: ['note'],
  });

type Flagger = { kind: 'person' | 'agent'; id: string; name: string };

export type FlagLoaded = FlagTarget & {
  flagger: Flagger;
  settings: ModerationSettings;
  trusted: boolean;
};

export type FlagAdded = FlagLoaded & { added: boolean; flag: FlagRecord };

export function flagAdd(
  config: Config,
): UseCase<z.output<typeof flagSchema>, FlagLoaded, FlagAdded> {
  return {
    name: 'post.flag',
    contract: flagSchema,
    guard: async ({ actor, community }) => requireWrite(actor, community),
    // The refusals come before the settings and the flagger's trust are read.
    load: async ({ store, actor, community }, input) => {
      const target = await flagTarget(store, actor, community, input.post);
      const me = authorOf(actor);
      if (me.kind !== 'person' && me.kind !== 'agent')
        throw new DomainError(
          'forbidden',
          'Flags are raised by people and agents of the community.',
        );
      if (target.post.author.kind === me.kind && target.post.author.id === me.id)
        throw new DomainError(
          'forbidden',
          'This is your own post: edit it or reply instead of flagging it.',
        );
      const settings = await moderationSettings(store, community);
      const trust = await trustOf(store, actor, community, settings);
      return {
        ...target,
        flagger: { kind: me.kind, id: me.id!, name: me.name },
        settings,
        trusted: trust.level === 'trusted',
      };
    },
    policy: async () => ({ mode: 'apply', reason: 'may_write' }),
    apply: async ({ tx, community }, input, loaded) => {
      const { post, topic } = loaded;
      const r = await tx.community(community.id).moderation.addFlag({
        postId: post.id,
        topicId: topic.id,
        flagger: loaded.flagger,
        reason: input.reason,
        note: input.note ?? null,
        trusted: loaded.trusted,
      });
      if (r.added) await flaggedEvent(tx, config, community, loaded, r.flag);
      return { ...loaded, added: r.added, flag: r.flag };
    },
    audit: (r) => ({ targets: { post_id: r.post.id, flag_id: r.flag.id } }),
  };
}

/** The post.flagged webhook event, in the flag's transaction. */
async function flaggedEvent(
  tx: Store,
  config: Config,
  community: Community,
  t: FlagTarget,
  flag: FlagRecord,
): Promise<void> {
  const category = await categoryOf(tx.community(community.id), t.topic);
  await recordWebhookEvent(tx, community.id, 'post.flagged', () => ({
    topic: topicView(config, community, t.topic, category),
    post: postView(config, community, t.topic, t.post),
    flag: {
      id: flag.id,
      reason: flag.reason,
      note: flag.note,
      flagger: { kind: flag.flagger.kind, name: flag.flagger.name },
      trusted: flag.trusted,
    },
  }));
}
