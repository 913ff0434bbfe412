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
 * owner. It guards categories, agents and keys, members, policies and the audit log.
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

/**
 * Whether the actor may make this kind of write (after requireWrite): the kind's scope, and for
 * articles (creating or revising one) membership. In a public community any signed-in person may
 * ask, reply, and accept an answer to their own question (the network's ask_community posts as the
 * key's person, member or not); the knowledge base is maintained by the community's members and
 * agents. The approval policy applies after this, to members as to everyone.
 */
export async function requireCanWriteKind(
  store: Store,
  actor: Actor,
  community: Community,
  kind: WriteKind,
): Promise<void> {
  requireScope(actor, SCOPE_FOR_KIND[kind]);
  if (kind !== 'article.write' || actor.kind !== 'person') return;
  if (roleAtLeast(await roleOf(store, actor, community), 'member')) return;
  throw new DomainError(
    'forbidden',
    `Articles of "${community.slug}" are written by the members of "${community.slug}". Ask one of its administrators to make you a member; meanwhile you can ask a question or reply in a discussion.`,
  );
}

/** The roles that administer a community (requireCommunityAdmin), strongest first. */
export const ADMINISTRATOR_ROLES: readonly Role[] = ['owner', 'admin'];

/** One change of a person's membership: to a role, or removed (`to` undefined). */
export type MembershipChange = {
  /** Who is changed, as the refusal names them. */
  email: string;
  /** The person changes their own membership. */
  self: boolean;
  from: Role | undefined;
  to: Role | undefined;
};

/**
 * The membership rule. Administrators (and the system: the operator's CLI) manage memberships;
 * only an owner (or the system) makes an owner, or demotes or removes one; the last owner is
 * neither demoted nor removed, and in a community that has no owner neither is the last
 * administrator: no change leaves a community nobody can administer. `actorRole` and
 * `administrators` (the roles of the community's owners and admins) are read in the change's
 * transaction, under the lock that makes concurrent changes wait for each other.
 */
export function requireMembershipChange(
  actor: Actor,
  actorRole: Role | undefined,
  community: Community,
  change: MembershipChange,
  administrators: readonly Role[],
): void {
  const slug = community.slug;
  if (actor.kind !== 'system') {
    if (!roleAtLeast(actorRole, 'admin'))
      throw new DomainError(
        'forbidden',
        `Only an administrator of "${slug}" can manage members. Ask an admin (or the owner) to do it.`,
      );
    if (actorRole !== 'owner' && change.to === 'owner' && change.from !== 'owner')
      throw new DomainError(
        'forbidden',
        `Only an owner of "${slug}" can make someone an owner. Ask an owner to do it.`,
      );
    if (actorRole !== 'owner' && change.from === 'owner')
      throw new DomainError(
        'forbidden',
        `Only an owner of "${slug}" can change or remove an owner. Ask an owner to do it.`,
      );
  }
  const who = change.self ? 'You are' : `${change.email} is`;
  const owners = administrators.filter((r) => r === 'owner').length;
  if (change.from === 'owner' && change.to !== 'owner' && owners <= 1)
    throw new DomainError(
      'conflict',
      `${who} the last owner of "${slug}": make another member an owner first.`,
    );
  const losesAdministrator = roleAtLeast(change.from, 'admin') && !roleAtLeast(change.to, 'admin');
  if (owners === 0 && losesAdministrator && administrators.length <= 1)
    throw new DomainError(
      'conflict',
      `${who} the last administrator of "${slug}": make another member an admin first.`,
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

/**
 * Moderator actions on topics and posts (close, lock, pin, delete, move, tags, duplicate, merge):
 * moderators and up, agents with "topic:moderate", the system. A person acting through a
 * connected app needs the scope granted too.
 */
export async function requireModerator(
  store: Store,
  actor: Actor,
  community: Community,
  what: string,
): Promise<void> {
  if (actor.kind === 'system') return;
  if (actor.kind === 'anonymous') {
    throw new DomainError(
      'unauthorized',
      `Sign in as a moderator of "${community.slug}", or send an agent key with the "topic:moderate" scope, to ${what}.`,
    );
  }
  if (actor.kind === 'agent' && actor.communityId !== community.id) {
    throw new DomainError(
      'forbidden',
      `This agent belongs to another community. Use an agent key of "${community.slug}".`,
    );
  }
  requireScope(actor, 'topic:moderate');
  if (actor.kind === 'agent') return;
  if (roleAtLeast(await roleOf(store, actor, community), 'moderator')) return;
  throw new DomainError(
    'forbidden',
    `Only moderators of "${community.slug}" can ${what}. Ask a moderator to do it.`,
  );
}

/** Whether the actor sees what moderators deleted (with who and why): moderators and up, the system. */
export async function seesDeleted(
  store: Store,
  actor: Actor,
  community: Community,
): Promise<boolean> {
  if (actor.kind === 'system') return true;
  return actor.kind === 'person' && roleAtLeast(await roleOf(store, actor, community), 'moderator');
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
