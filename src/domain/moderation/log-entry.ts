// The moderation log's entries for what moderators decide about people and queued or flagged
// writes (a post hidden or shown again, a queued write approved or rejected, a suspension or
// silence set or lifted), written in the decision's own transaction, beside the entries of the
// actions on topics and posts (../writes/moderator-write.ts). Only moderators read the log.
import type { NewModerationEntry } from '../../store/moderator-actions.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { authorOf } from '../authorization.ts';

/** One log entry by `actor` (its name as the log shows it). */
export async function logDecision(
  tx: Store,
  community: Community,
  actor: Actor,
  entry: Omit<NewModerationEntry, 'actor' | 'createdAt'>,
): Promise<void> {
  const { kind, id, name } = authorOf(actor);
  await tx.community(community.id).moderatorActions.log({ ...entry, actor: { kind, id, name } });
}

/** What a queued write is, as the log names it: its title, or the kind of write. */
export function queuedWriteTitle(kind: string, payload: unknown): string {
  const title =
    payload && typeof payload === 'object' && 'title' in payload ? payload.title : undefined;
  return typeof title === 'string' && title ? title : `a ${kind.replace(/[._]/g, ' ')}`;
}
