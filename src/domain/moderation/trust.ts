// Trust a person or an agent earns in one community. The inputs are read by `trustInputs` (time
// here, accepted answers, votes received, reputation from the verified outcomes of their answers,
// flags against them upheld lately) and the level is a pure function of those inputs and the
// community's thresholds (`trustLevel`), so a new signal plugs in as one more input:
//   new      an upheld flag lately, or too new with nothing else earned
//   member   member_after_days here, an accepted answer, or half of trusted_reputation
//   trusted  trusted_after_days here and one of: trusted_accepted_answers, trusted_votes or
//            trusted_reputation; never with a negative reputation (answers that failed for others
//            hold one back)
// Reputation counts a ring of one owner's agents nothing for each other (../knowledge/reputation.ts).
// Moderators, the system and agents an administrator marked trusted are trusted by role, whatever
// their inputs.
import type { Store } from '../../store/repositories.ts';
import type { AuthorRef, Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { authorOf, roleAtLeast, roleOf } from '../authorization.ts';
import type { ModerationSettings } from './settings.ts';
import type { TrustLevel } from './vocabulary.ts';

export type TrustInputs = {
  /** Whole days since they joined the community (a person's membership, an agent's creation). */
  daysHere: number;
  acceptedAnswers: number;
  /** Net votes received on their posts. */
  votesReceived: number;
  /** Flags against their posts a moderator upheld within the settings' clean_days. */
  upheldFlags: number;
  /** Their reputation here, from the verified outcomes of their answers (0: none yet). */
  reputation: number;
};

export type Trust = {
  level: TrustLevel;
  /** Why: "moderator", "trusted_agent", "system", or "earned" (from the inputs). */
  basis: 'moderator' | 'trusted_agent' | 'system' | 'earned';
  inputs?: TrustInputs;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** The level the inputs earn under the community's thresholds. */
export function trustLevel(inputs: TrustInputs, t: ModerationSettings['trust']): TrustLevel {
  if (inputs.upheldFlags > 0) return 'new';
  if (
    inputs.daysHere >= t.trusted_after_days &&
    inputs.reputation >= 0 &&
    (inputs.acceptedAnswers >= t.trusted_accepted_answers ||
      inputs.votesReceived >= t.trusted_votes ||
      inputs.reputation >= t.trusted_reputation)
  )
    return 'trusted';
  if (
    inputs.daysHere >= t.member_after_days ||
    inputs.acceptedAnswers > 0 ||
    inputs.reputation >= t.trusted_reputation / 2
  )
    return 'member';
  return 'new';
}

/** Net votes received by `author` here: the summed score of every post they wrote. */
async function votesReceived(store: Store, community: Community, author: AuthorRef) {
  return store.community(community.id).votes.scoreReceived(author);
}

/** When `author` arrived in the community: a person's membership, else their account; an agent's creation. */
async function arrivedAt(store: Store, community: Community, author: AuthorRef): Promise<string> {
  const scope = store.community(community.id);
  if (author.kind === 'agent' && author.id)
    return (await scope.agents.getById(author.id))?.createdAt ?? new Date().toISOString();
  if (author.kind === 'person' && author.id) {
    const member = await scope.access.members.get(author.id);
    if (member) return member.createdAt;
    return (await store.people.getById(author.id))?.createdAt ?? new Date().toISOString();
  }
  return new Date().toISOString();
}

export async function trustInputs(
  store: Store,
  community: Community,
  author: AuthorRef,
  settings: ModerationSettings,
  now: Date,
): Promise<TrustInputs> {
  const scope = store.community(community.id).moderation;
  const since = new Date(now.getTime() - settings.trust.clean_days * DAY_MS).toISOString();
  const [arrived, acceptedAnswers, votes, upheldFlags, reputation] = await Promise.all([
    arrivedAt(store, community, author),
    scope.acceptedAnswersOf(author),
    votesReceived(store, community, author),
    scope.upheldAgainst(author, since),
    store.community(community.id).reputation.of(author),
  ]);
  return {
    daysHere: Math.max(0, Math.floor((now.getTime() - Date.parse(arrived)) / DAY_MS)),
    acceptedAnswers,
    votesReceived: votes,
    upheldFlags,
    reputation,
  };
}

/** The actor's trust in the community now. */
export async function trustOf(
  store: Store,
  actor: Actor,
  community: Community,
  settings: ModerationSettings,
  now = new Date(),
): Promise<Trust> {
  if (actor.kind === 'system') return { level: 'trusted', basis: 'system' };
  if (actor.kind === 'agent' && actor.trusted) return { level: 'trusted', basis: 'trusted_agent' };
  if (actor.kind === 'person' && roleAtLeast(await roleOf(store, actor, community), 'moderator'))
    return { level: 'trusted', basis: 'moderator' };
  if (actor.kind === 'anonymous') return { level: 'new', basis: 'earned' };
  const inputs = await trustInputs(store, community, authorOf(actor), settings, now);
  return { level: trustLevel(inputs, settings.trust), basis: 'earned', inputs };
}
