// OAuth scopes are Hamlet's scopes: what a person lets a connected app do in one community, in plain
// words for the consent page, capped by what the person's role allows them to do themselves.
import type { Community } from '../../store/types.ts';
import { roleAtLeast } from '../authorization.ts';
import { isScope, SCOPES, type Role, type Scope } from '../vocabulary.ts';

/** What each scope lets an app do, as the consent page and the connected-apps pages say it. */
export const SCOPE_WORDS: Record<Scope, string> = {
  'topic:create': 'Ask questions and start topics in your name',
  'post:create': 'Reply to topics in your name',
  'solution:mark': 'Accept an answer to your own questions',
  'article:write': 'Write knowledge-base articles in your name',
  'approval:decide': 'Approve or reject queued posts as a moderator',
  'feedback:write': 'Vote on posts and say whether answers worked, in your name',
};

/** The same in a word or two, for lists of connections. */
export const SCOPE_SHORT: Record<Scope, string> = {
  'topic:create': 'ask',
  'post:create': 'reply',
  'solution:mark': 'accept answers',
  'article:write': 'write articles',
  'approval:decide': 'decide approvals',
  'feedback:write': 'vote and confirm answers',
};

/** Always part of a connection: reading needs no scope. */
export const READ_WORDS = 'Search and read this community: topics, answers and articles';

/** What an app usually needs (the 401 challenge names them); more can be asked for later (step-up). */
export const EVERYDAY_SCOPES: readonly Scope[] = ['topic:create', 'post:create', 'solution:mark'];

/**
 * The scopes a space-separated `scope` parameter names, in Hamlet's order. Values Hamlet does not
 * know (e.g. `offline_access`: refresh tokens are always issued) are ignored, as RFC 6749 allows.
 */
export function parseScopes(value: string | null | undefined): Scope[] {
  const named = new Set((value ?? '').split(' ').filter(isScope));
  return SCOPES.filter((s) => named.has(s));
}

/**
 * What a person may let an app do: what they could do themselves (src/domain/authorization.ts).
 * Anyone who may write here may ask, reply and accept answers to their questions; writing articles
 * takes a member, deciding approvals a moderator. In a private community only members may write.
 */
export function scopesForRole(role: Role | undefined, community: Community): Scope[] {
  if (!role && community.visibility === 'private') return [];
  const writer: Scope[] = ['topic:create', 'post:create', 'solution:mark'];
  if (!roleAtLeast(role, 'member')) return writer;
  return roleAtLeast(role, 'moderator')
    ? [...writer, 'article:write', 'approval:decide']
    : [...writer, 'article:write'];
}

/** `wanted` ∩ `allowed`, in Hamlet's order. */
export function intersectScopes(
  wanted: readonly string[],
  ...allowed: ReadonlyArray<readonly string[]>
): Scope[] {
  return SCOPES.filter((s) => wanted.includes(s) && allowed.every((a) => a.includes(s)));
}
