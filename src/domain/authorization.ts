// Who may read, write, decide and administer what: every access rule of Hamlet, in one place.
// Refusals say what to do. Roles of a person come from the actor when authentication loaded them,
// else from the membership (read through the store given, which inside a transaction must be the
// transaction's own: SQLite has one connection).
import type { Store } from '../store/repositories.ts';
import type { AuthorRef, Community, Topic } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { DomainError } from './errors.ts';
import { isRole, type Role, type Scope, type WriteKind } from './vocabulary.ts';

export const SCOPE_FOR_KIND: Record<WriteKind, Scope> = {
  'topic.create': 'topic:create',
  'post.create': 'post:create',
  'solution.mark': 'solution:mark',
  'article.write': 'article:write',
};

const RANK: Record<Role, number> = { member: 1, moderator: 2, admin: 3, owner: 4 };

export function roleAtLeast(role: Role | undefined, minimum: Role): boolean {
  return role !== undefined && RANK[role] >= RANK[minimum];
}

/** The person's role in the community; undefined for everyone else and for non-members. */
export async function roleOf(
  store: Store,
  actor: Actor,
  community: Community,
): Promise<Role | undefined> {
  if (actor.kind !== 'person') return undefined;
  const known = actor.roles?.[community.id];
  if (known) return known;
  const role = (await store.community(community.id).access.members.get(actor.personId))?.role;
  return isRole(role) ? role : undefined;
}

/** The same answer for "does not exist" and "exists but you may not see it": no existence leaks. */
export function communityNotFound(slug: string): DomainError {
  return new DomainError(
    'not_found',
    `No community "${slug}" is available here. Check the address, or list public communities.`,
  );
}

/** Public communities are readable by anyone; private ones by their members and agents. */
export function canRead(actor: Actor, community: Community): boolean {
  if (community.visibility === 'public') return true;
  if (actor.kind === 'system') return true;
  if (actor.kind === 'agent') return actor.communityId === community.id;
  return actor.kind === 'person' && actor.roles?.[community.id] !== undefined;
}

export function requireRead(actor: Actor, community: Community): void {
  if (!canRead(actor, community)) throw communityNotFound(community.slug);
}

/** Readable, and the actor is someone who can be named as author in this community. */
export function requireWrite(actor: Actor, community: Community): void {
  requireRead(actor, community);
  if (actor.kind === 'anonymous') {
    throw new DomainError(
      'unauthorized',
      'Writing needs a signed-in person or an agent key of this community. Sign in or pass a key.',
    );
  }
  if (actor.kind === 'agent' && actor.communityId !== community.id) {
    throw new DomainError(
      'forbidden',
      `This agent belongs to another community. Use an agent key of "${community.slug}".`,
    );
  }
}

/** A connected app's token lacks a scope: the person can approve it by connecting the app again. */
export class ScopeNotGranted extends DomainError {
  constructor(
    readonly scope: Scope,
    clientName: string,
  ) {
    super(
      'forbidden',
      `${clientName} was not granted "${scope}" for this community. Connect it again and approve "${scope}" to allow it.`,
    );
  }
}

/**
 * Scopes bind agents, and people acting through a connected app (the token's scopes, capped by the
 * person's role); a person's own writes are governed by membership and role, the system may do
 * anything. Anonymous callers are told how to authenticate.
 */
export function requireScope(actor: Actor, scope: Scope): void {
  if (actor.kind === 'system') return;
  if (actor.kind === 'person') {
    if (actor.client && !actor.client.scopes.includes(scope))
      throw new ScopeNotGranted(scope, actor.client.name);
    return;
  }
  if (actor.kind === 'anonymous') {
    throw new DomainError(
      'unauthorized',
      `This needs the scope "${scope}": send an agent key (Authorization: Bearer hmlt_live_…) of an agent that has it.`,
    );
  }
  if (!(actor.scopes ?? []).includes(scope)) {
    throw new DomainError(
      'forbidden',
      `This agent key is not scoped for "${scope}". Add the scope to the agent to allow it.`,
    );
  }
}

/**
 * The one administrator rule: the system, or a person whose role in the community is admin or
 * owner. It guards categories, topic status, agents and keys, members, policies and the audit log.
 */
export async function requireCommunityAdmin(
  store: Store,
  actor: Actor,
  community: Community,
  what: string,
): Promise<void> {
  if (actor.kind === 'system') return;
  if (actor.kind === 'anonymous') {
    throw new DomainError(
      'unauthorized',
      `Sign in as an administrator of "${community.slug}" to ${what}.`,
    );
  }
  if (actor.kind === 'person' && actor.client) {
    throw new DomainError(
      'forbidden',
      `Connected apps cannot administer "${community.slug}": ${actor.client.name} acts for you in discussions only. Sign in on the web to ${what}.`,
    );
  }
  if (actor.kind === 'person' && roleAtLeast(await roleOf(store, actor, community), 'admin'))
    return;
  throw new DomainError(
    'forbidden',
    `Only an administrator of "${community.slug}" can ${what}. Ask an admin (or the owner) to do it.`,
  );
}

/** Approving or rejecting queued writes: moderators and up, agents with approval:decide, the system. */
export async function requireDecider(
  store: Store,
  actor: Actor,
  community: Community,
): Promise<void> {
  if (actor.kind === 'system') return;
  if (actor.kind === 'anonymous') {
    throw new DomainError(
      'unauthorized',
      `Deciding approvals needs a moderator of "${community.slug}" signed in, or an agent key with the "approval:decide" scope.`,
    );
  }
  if (actor.kind === 'agent') {
    if (actor.communityId !== community.id) {
      throw new DomainError(
        'forbidden',
        `This agent belongs to another community. Use an agent key of "${community.slug}".`,
      );
    }
    requireScope(actor, 'approval:decide');
    return;
  }
  requireScope(actor, 'approval:decide'); // a person acting through a connected app needs it too
  if (roleAtLeast(await roleOf(store, actor, community), 'moderator')) return;
  throw new DomainError(
    'forbidden',
    `Only moderators of "${community.slug}" can approve or reject queued writes. Ask a moderator to decide it.`,
  );
}

/** The topic's author, a moderator, an agent of the community (scoped by solution:mark), or the system. */
export async function requireCanMarkSolution(
  store: Store,
  actor: Actor,
  community: Community,
  topic: Topic,
): Promise<void> {
  requireWrite(actor, community);
  if (actor.kind === 'system' || actor.kind === 'agent') return;
  if (
    actor.kind === 'person' &&
    topic.author.kind === 'person' &&
    topic.author.id === actor.personId
  )
    return;
  if (roleAtLeast(await roleOf(store, actor, community), 'moderator')) return;
  throw new DomainError(
    'forbidden',
    'Only the author of the topic (or a moderator) can accept an answer. Reply instead to suggest one.',
  );
}

/** How long after posting its author may still edit a post (moderators may edit any post, any time). */
export const EDIT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Editing a post: its author (a person) within EDIT_WINDOW_MS of posting, or a moderator. */
export async function requireCanEditPost(
  store: Store,
  actor: Actor,
  community: Community,
  post: { author: AuthorRef; createdAt: string },
  now: Date,
): Promise<void> {
  requireWrite(actor, community);
  if (actor.kind === 'system') return;
  if (roleAtLeast(await roleOf(store, actor, community), 'moderator')) return;
  if (actor.kind === 'agent')
    throw new DomainError(
      'forbidden',
      'Agents cannot edit posts. Reply to the topic with the correction instead.',
    );
  const own =
    actor.kind === 'person' && post.author.kind === 'person' && post.author.id === actor.personId;
  if (!own)
    throw new DomainError(
      'forbidden',
      "You can only edit your own posts. Reply to the topic to add to someone else's.",
    );
  if (now.getTime() - Date.parse(post.createdAt) > EDIT_WINDOW_MS) {
    throw new DomainError(
      'forbidden',
      `Posts can be edited for ${EDIT_WINDOW_MS / 3_600_000} hours after posting. Reply to the topic with the correction instead.`,
    );
  }
}

/** Imports and seeds write with original dates and on behalf of imported people: system only. */
export function requireSystemFor(actor: Actor, what: string): void {
  if (actor.kind !== 'system') {
    throw new DomainError(
      'forbidden',
      `Only imports and administrative tools can set ${what}. Leave it out.`,
    );
  }
}

/** How the actor is recorded as author. */
export function authorOf(actor: Actor): AuthorRef {
  switch (actor.kind) {
    case 'person':
      return actor.client
        ? { kind: 'person', id: actor.personId, name: actor.displayName, via: actor.client.name }
        : { kind: 'person', id: actor.personId, name: actor.displayName };
    case 'agent':
      return { kind: 'agent', id: actor.agentId, name: actor.name };
    case 'system':
      return { kind: 'system', id: null, name: actor.name };
    case 'anonymous':
      throw new DomainError(
        'unauthorized',
        'Anonymous visitors cannot write. Sign in or pass a key.',
      );
  }
}
