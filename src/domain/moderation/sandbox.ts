// Trust in the write policy. New accounts (trust "new") are sandboxed: at most so many links and
// @mentions per post and posts per day, and their first post queued when the community says so
// (reason first_post: "queued: your first post in this community"). Trusted members skip the
// community's approval policy when the community allows it (reason trusted_member); a category's
// own approval policy still holds for them. Agents are sandboxed only where the community says
// so (an administrator minted their key). Moderators, trusted agents and the system are never
// sandboxed (the write runner decided for them already).
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { authorOf } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { RateLimitedError } from '../identity/rate-limit.ts';
import type { Loaded } from '../content-lookup.ts';
import type { WriteKind } from '../vocabulary.ts';
import { moderationSettings } from './settings.ts';
import { trustOf } from './trust.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const LINK = /\bhttps?:\/\/[^\s)<>\]]+/gi;

/** A write as the runner prepared it: who, where, its kind and payload, what it loaded. */
type Prepared = {
  actor: Actor;
  community: Community;
  command: { kind: WriteKind; payload: unknown };
  loaded: Loaded;
};

/** What the write runner decided (its PolicyDecision), and the two reasons trust adds. */
type Decision = { mode: 'auto' | 'approval'; reason: string };
type Trusted =
  { mode: 'auto'; reason: 'trusted_member' } | { mode: 'approval'; reason: 'first_post' };

/** The body of a write that has one (a topic's question, a reply, an article). */
function bodyOf(prepared: Prepared): string | undefined {
  const p = prepared.command.payload as { body?: unknown };
  return typeof p.body === 'string' ? p.body : undefined;
}

/**
 * The decision with trust applied; throws forbidden when a sandbox limit refuses the write (links,
 * mentions), rate_limited when the posts of the last day are used up.
 */
export async function withTrust<D extends Decision>(
  store: Store,
  prepared: Prepared,
  decision: D,
): Promise<D | Trusted> {
  const { actor, community } = prepared;
  if (!['policy_auto', 'category_auto'].includes(decision.reason) && decision.mode === 'auto')
    return decision;
  if (actor.kind !== 'person' && actor.kind !== 'agent') return decision;
  const settings = await moderationSettings(store, community);
  // An agent outside the sandbox writing at once: its trust could change nothing.
  if (actor.kind === 'agent' && !settings.sandbox.agents && decision.mode === 'auto')
    return decision;
  const trust = await trustOf(store, actor, community, settings);
  if (trust.level === 'trusted') {
    // Writes through a connected app stay under the approval policy whatever the person's trust.
    const viaApp = actor.kind === 'person' && actor.client !== undefined;
    return settings.trusted_skip_approval &&
      !viaApp &&
      decision.mode === 'approval' &&
      decision.reason.startsWith('approval_policy:')
      ? { mode: 'auto', reason: 'trusted_member' }
      : decision;
  }
  if (trust.level !== 'new' || (actor.kind === 'agent' && !settings.sandbox.agents))
    return decision;
  await sandboxLimits(store, actor, community, prepared, settings.sandbox);
  const writesPost = ['topic.create', 'post.create'].includes(prepared.command.kind);
  if (settings.sandbox.queue_first_post && writesPost && decision.mode === 'auto') {
    const written = await store.community(community.id).moderation.postsBy(authorOf(actor));
    if (written === 0) return { mode: 'approval', reason: 'first_post' };
  }
  return decision;
}

async function sandboxLimits(
  store: Store,
  actor: Actor,
  community: Community,
  prepared: Prepared,
  limits: { posts_per_day: number; links_per_post: number; mentions_per_post: number },
): Promise<void> {
  const body = bodyOf(prepared);
  if (body === undefined) return;
  const why = `New accounts in "${community.slug}" are limited until they have been here a while`;
  const links = new Set(body.match(LINK) ?? []).size;
  if (links > limits.links_per_post)
    throw new DomainError(
      'forbidden',
      `${why}: at most ${limits.links_per_post} links per post (this one has ${links}). Remove some links and send it again.`,
    );
  const mentions = prepared.loaded.mentions?.length ?? 0;
  if (mentions > limits.mentions_per_post)
    throw new DomainError(
      'forbidden',
      `${why}: at most ${limits.mentions_per_post} @mentions per post (this one has ${mentions}). Mention fewer people and send it again.`,
    );
  // Posts per day is a rate: refused as rate_limited, with the wait until the oldest post of the
  // last 24 hours leaves the window (HTTP 429 and Retry-After on REST and the web).
  const now = Date.now();
  const since = new Date(now - DAY_MS).toISOString();
  const today = await store.community(community.id).moderation.postsSince(authorOf(actor), since);
  if (today.count >= limits.posts_per_day) {
    const frees = (today.oldestAt ? Date.parse(today.oldestAt) : now) + DAY_MS;
    const wait = Math.max(1, Math.ceil((frees - now) / 1000));
    throw new RateLimitedError(
      `${why}: at most ${limits.posts_per_day} posts a day, and you wrote ${today.count} in the last 24 hours. You can post again ${waitInWords(wait)}.`,
      wait,
    );
  }
}

/** "in 3 hours", "in 12 minutes", "in a minute": when a wait of `seconds` ends, for people. */
function waitInWords(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 1) return 'in a minute';
  if (minutes < 60) return `in ${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? 'in an hour' : `in ${hours} hours`;
}

/** What the author of a write queued for `reason` is told first. */
export function queuedLead(reason: string): string | undefined {
  return reason === 'first_post' ? 'Queued: your first post in this community.' : undefined;
}
