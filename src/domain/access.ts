// Who may read and write what, in one place. Minimal until the identity issue adds memberships,
// roles and agent scopes: it extends these functions, and services keep calling them.
import type { AuthorRef, Community, Topic } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { DomainError } from './errors.ts';

/** The same answer for "does not exist" and "exists but you may not see it": no existence leaks. */
export function communityNotFound(slug: string): DomainError {
  return new DomainError('not_found', `No community "${slug}" is available here. Check the address, or list public communities.`);
}

export function canRead(actor: Actor, community: Community): boolean {
  if (community.visibility === 'public') return true;
  if (actor.kind === 'system') return true;
  if (actor.kind === 'agent') return actor.communityId === community.id;
  // People read a private community when they are members (roles loaded at authentication).
  return actor.kind === 'person' && actor.roles?.[community.id] !== undefined;
}

export function requireRead(actor: Actor, community: Community): void {
  if (!canRead(actor, community)) throw communityNotFound(community.slug);
}

/** Readable, and the actor is someone who can be named as author in this community. */
export function requireWrite(actor: Actor, community: Community): void {
  requireRead(actor, community);
  if (actor.kind === 'anonymous') {
    throw new DomainError('unauthorized', 'Writing needs a signed-in person or an agent key of this community. Sign in or pass a key.');
  }
  if (actor.kind === 'agent' && actor.communityId !== community.id) {
    throw new DomainError('forbidden', `This agent belongs to another community. Use an agent key of "${community.slug}".`);
  }
}

/** Operations reserved to administrators (categories, community settings): the CLI only, for now. */
export function requireAdmin(actor: Actor, community: Community, what: string): void {
  requireWrite(actor, community);
  const role = actor.kind === 'person' ? actor.roles?.[community.id] : undefined;
  if (actor.kind !== 'system' && role !== 'admin' && role !== 'owner') {
    throw new DomainError('forbidden', `Only an administrator of "${community.slug}" can ${what}. Ask an admin to do it.`);
  }
}

/** The topic's author, an agent of the community, or the system may accept an answer. */
export function requireCanMarkSolution(actor: Actor, community: Community, topic: Topic): void {
  requireWrite(actor, community);
  if (actor.kind === 'system' || actor.kind === 'agent') return;
  if (actor.kind === 'person' && topic.author.kind === 'person' && topic.author.id === actor.personId) return;
  const role = actor.kind === 'person' ? actor.roles?.[community.id] : undefined;
  if (role === 'moderator' || role === 'admin' || role === 'owner') return;
  throw new DomainError('forbidden', 'Only the author of the topic (or a moderator) can accept an answer. Reply instead to suggest one.');
}

/** How the actor is recorded as author. */
export function authorOf(actor: Actor): AuthorRef {
  switch (actor.kind) {
    case 'person':
      return { kind: 'person', id: actor.personId, name: actor.displayName };
    case 'agent':
      return { kind: 'agent', id: actor.agentId, name: actor.name };
    case 'system':
      return { kind: 'system', id: null, name: actor.name };
    case 'anonymous':
      throw new DomainError('unauthorized', 'Anonymous visitors cannot write. Sign in or pass a key.');
  }
}

/** Imports and seeds write with original dates and on behalf of imported people: system only. */
export function requireSystemFor(actor: Actor, what: string): void {
  if (actor.kind !== 'system') {
    throw new DomainError('forbidden', `Only imports and administrative tools can set ${what}. Leave it out.`);
  }
}
