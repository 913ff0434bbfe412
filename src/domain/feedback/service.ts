// Votes and "this worked" reports: the writes (../writes/vote-set.ts, outcome-report.ts, run by
// the one runner), the vote settings, and the reads that attach each post's signals and the
// reader's own vote to what they see.
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { requireRead } from '../authorization.ts';
import type { PostView } from '../views.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import type { UseCase } from '../writes/use-case.ts';
import { voteSettingsSet } from '../writes/vote-settings-set.ts';
import { NO_SIGNALS } from './signals.ts';

export class FeedbackService {
  constructor(
    private readonly store: Store,
    private readonly runner: WriteRunner,
  ) {}

  /** Runs one feedback write (a vote, an outcome report) through the runner. */
  async write<I, L, R>(
    actor: Actor,
    community: Community,
    use: UseCase<I, L, R>,
    input: unknown,
    options: RunOptions = {},
  ): Promise<R> {
    return this.runner.run(use, actor, community, input, options);
  }

  /** The posts with their signals attached (none: zero). */
  async withSignals(community: Community, posts: PostView[]): Promise<PostView[]> {
    const found = await this.store.community(community.id).votes.signals(posts.map((p) => p.id));
    return posts.map((p) => ({ ...p, signals: found.get(p.id) ?? NO_SIGNALS }));
  }

  /**
   * A page of a topic's posts with their signals; with `best`, the question first, then the
   * accepted answer, then by score (highest first), then in the order they were posted.
   */
  async topicPage(
    community: Community,
    posts: PostView[],
    order: 'position' | 'best' = 'position',
  ): Promise<PostView[]> {
    const signed = await this.withSignals(community, posts);
    if (order === 'position') return signed;
    const rank = (p: PostView) => (p.isQuestion ? 0 : p.isSolution ? 1 : 2);
    return [...signed].sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (b.signals?.score ?? 0) - (a.signals?.score ?? 0) ||
        a.position - b.position,
    );
  }

  /** What the reader did on these posts: their vote and their outcome report (people only). */
  async mine(
    actor: Actor,
    community: Community,
    postIds: string[],
  ): Promise<{ votes: Map<string, number>; outcomes: Map<string, boolean> }> {
    if (actor.kind !== 'person') return { votes: new Map(), outcomes: new Map() };
    const votes = this.store.community(community.id).votes;
    return {
      votes: await votes.votesOf(actor.personId, postIds),
      outcomes: await votes.outcomesOf({ kind: 'person', id: actor.personId }, postIds),
    };
  }

  async settings(actor: Actor, community: Community): Promise<{ downvotes: boolean }> {
    requireRead(actor, community);
    return { downvotes: await this.store.community(community.id).votes.downvotes() };
  }

  /** Administrators only; its audit entry is `options.audit`, the call's, when given. */
  async setSettings(
    actor: Actor,
    community: Community,
    input: unknown,
    options: RunOptions = {},
  ): Promise<{ downvotes: boolean }> {
    return this.runner.run(voteSettingsSet, actor, community, input, options);
  }
}
