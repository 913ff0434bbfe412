// flag.decide: a moderator (or an agent with approval:decide) decides a post: hide it (its open flags
// upheld; a moderator's hide replaces one by flags) or dismiss its flags (the post is shown again).
// The open flags are read in the decision's transaction, so each flagger hears the decision once;
// the post's author hears it was hidden.
import { z } from 'zod';
import type { FlagRecord } from '../../store/moderation.ts';
import type { NewNotification } from '../../store/notifications.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { authorOf, requireDecider } from '../authorization.ts';
import { reason as reasonField, recordId } from '../fields.ts';
import type { UseCase } from '../writes/use-case.ts';
import { flagTarget, type FlagTarget } from './flag-target.ts';
import type { FlagDecision } from './vocabulary.ts';
import { logDecision } from './log-entry.ts';

const contract = z.object({
  post: recordId,
  decision: z.enum(['hide', 'dismiss']),
  note: reasonField.optional(),
});

export type HideOutcome = {
  postId: string;
  hidden: boolean;
  settledFlags: number;
  message: string;
};

export const flagDecide: UseCase<z.output<typeof contract>, FlagTarget, HideOutcome> = {
  name: 'flag.decide',
  contract,
  guard: ({ store, actor, community }) => requireDecider(store, actor, community),
  load: ({ store, actor, community }, input) => flagTarget(store, actor, community, input.post),
  policy: async () => ({ mode: 'apply', reason: 'decider' }),
  apply: async ({ tx, actor, community }, input, { post, topic }) => {
    const by = authorOf(actor).name;
    const scope = tx.community(community.id).moderation;
    const flags = await scope.flagsOf(post.id, 'open');
    let hidden: boolean;
    let settled: number;
    if (input.decision === 'hide') {
      await scope.unhide(post.id); // a moderator's hide replaces one by flags
      await scope.hide({
        postId: post.id,
        topicId: topic.id,
        position: post.position,
        cause: 'moderator',
        note: input.note ?? null,
        byName: by,
      });
      settled = await scope.settleFlags(post.id, 'upheld', by);
      hidden = true;
    } else {
      settled = await scope.settleFlags(post.id, 'dismissed', by);
      await scope.unhide(post.id);
      hidden = false;
    }
    await notifyDecision(tx, community, actor, { post, topic }, flags, input.decision, input.note);
    await logDecision(tx, community, actor, {
      action: hidden ? 'hide_post' : 'show_post',
      topicId: topic.id,
      postId: post.id,
      targetTitle: topic.title,
      detail: `by ${post.author.name}${settled ? `, ${settled} flag${settled === 1 ? '' : 's'} ${hidden ? 'upheld' : 'dismissed'}` : ''}`,
      reason: input.note ?? '',
    });
    return {
      postId: post.id,
      hidden,
      settledFlags: settled,
      message: hidden
        ? `The post is hidden from everyone but moderators${settled ? `; ${settled} flag(s) upheld` : ''}.`
        : `The post is shown${settled ? `; ${settled} flag(s) dismissed` : ''}.`,
    };
  },
  audit: (outcome) => ({ targets: { post_id: outcome.postId } }),
};

/** The post's author hears it was hidden; each person who flagged it hears the decision. */
async function notifyDecision(
  tx: Store,
  community: Community,
  actor: Actor,
  t: FlagTarget,
  flags: FlagRecord[],
  decision: FlagDecision,
  note: string | undefined,
): Promise<void> {
  const by = authorOf(actor);
  const base = {
    topicId: t.topic.id,
    postId: t.post.id,
    actor: { kind: by.kind, id: by.id, name: by.name },
    title: t.topic.title,
    reason: note ?? null,
  };
  const rows: NewNotification[] = [];
  const at = Date.now();
  if (decision === 'hide' && t.post.author.kind === 'person' && t.post.author.id)
    rows.push({
      ...base,
      recipientId: t.post.author.id,
      kind: 'post_hidden',
      sourceKey: `hidden:${t.post.id}:${at}`,
    });
  for (const f of flags)
    if (f.flagger.kind === 'person')
      rows.push({
        ...base,
        recipientId: f.flagger.id,
        kind: decision === 'hide' ? 'flag_upheld' : 'flag_dismissed',
        sourceKey: `flag:${f.id}`,
      });
  if (rows.length) await tx.community(community.id).notifications.add(rows);
}
