// Flags on posts and hiding them. Anyone who may write here flags a post once (a second flag by the
// same person or agent changes nothing and says so); enough open flags from trusted members hide
// it until a moderator decides: hide (the flags are upheld, the author is told) or dismiss (the
// post is shown again). Moderators and agents with approval:decide may also hide and show a post
// directly. Flaggers hear the decision as a notification. Flagging and deciding are use cases of
// the one write runner (./flag-add.ts, ./flag-decide.ts).
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import { flagAdd } from './flag-add.ts';
import { flagDecide, type HideOutcome } from './flag-decide.ts';
import type { FlagDecision, FlagReason } from './vocabulary.ts';

export { flagSchema } from './flag-add.ts';
export type { HideOutcome } from './flag-decide.ts';

export type FlagOutcome = {
  flagId: string;
  postId: string;
  reason: FlagReason;
  /** false: this flagger had flagged the post already (the first flag stands). */
  added: boolean;
  trusted: boolean;
  openFlags: number;
  hidden: boolean;
  message: string;
};

export class FlagService {
  private readonly add: ReturnType<typeof flagAdd>;

  constructor(
    private readonly store: Store,
    config: Config,
    private readonly runner: WriteRunner,
  ) {
    this.add = flagAdd(config);
  }

  async flag(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: RunOptions,
  ): Promise<FlagOutcome> {
    const r = await this.runner.run(this.add, actor, community, input, options);
    const { post, topic, flag, added, settings } = r;
    // Counted after the commit: of concurrent flaggers, the last to commit sees every flag.
    const scope = this.store.community(community.id).moderation;
    const trustedFlags = await scope.openFlagCount(post.id, true);
    let hidden = (await scope.hiddenAmong([post.id])).length > 0;
    if (!hidden && trustedFlags >= settings.flags_to_hide) {
      await scope.hide({
        postId: post.id,
        topicId: topic.id,
        position: post.position,
        cause: 'flags',
        note: `${trustedFlags} flags from trusted members`,
        byName: 'flags',
      });
      hidden = true;
    }
    const openFlags = await scope.openFlagCount(post.id, false);
    return {
      flagId: flag.id,
      postId: post.id,
      reason: flag.reason as FlagReason,
      added,
      trusted: flag.trusted,
      openFlags,
      hidden,
      message: added
        ? `Flagged as ${flag.reason}. A moderator of "${community.slug}" will review it${hidden ? '; the post is hidden until then' : ''}.`
        : `You flagged this post already (as ${flag.reason}); the first flag stands and is waiting for a moderator.`,
    };
  }

  /** A moderator's decision on a post: hide it (its open flags upheld) or dismiss its flags (shown). */
  async decide(
    actor: Actor,
    community: Community,
    input: { post: string; decision: FlagDecision; note?: string },
    options?: RunOptions,
  ): Promise<HideOutcome> {
    return this.runner.run(flagDecide, actor, community, input, options);
  }
}
