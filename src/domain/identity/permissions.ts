// Scopes and roles: the authorization helpers the write path, the approval queue and the admin
// commands share. Refusals always say what to do.
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import { ROLES, SCOPES, type Role, type Scope, type WriteKind } from '../../store/identity.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';

export { ROLES, SCOPES, type Role, type Scope };

export const SCOPE_FOR_KIND: Record<WriteKind, Scope> = {
  'topic.create': 'topic:create',
  'post.create': 'post:create',
  'solution.mark': 'solution:mark',
  'article.write': 'article:write',
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Scopes bind agents only: a person's writes are governed by membership, the system may do anything.
 * Anonymous callers are told how to authenticate.
 */
export function requireScope(actor: Actor, scope: Scope): void {
  if (actor.kind === 'system' || actor.kind === 'person') return;
  if (actor.kind === 'anonymous') {
    throw new DomainError('unauthorized', `This needs the scope "${scope}": send an agent key (Authorization: Bearer hmlt_live_…) of an agent that has it.`);
  }
  if (!(actor.scopes ?? []).includes(scope)) {
    throw new DomainError('forbidden', `This agent key is not scoped for "${scope}". Add the scope to the agent to allow it.`);
  }
}

const RANK: Record<Role, number> = { member: 1, moderator: 2, admin: 3, owner: 4 };

export function roleAtLeast(role: Role | undefined, minimum: Role): boolean {
  return role !== undefined && RANK[role] >= RANK[minimum];
}

/** The person's role in the community: from the actor when authentication loaded it, else the store. */
export async function roleOf(store: Store, actor: Actor, community: Community): Promise<Role | undefined> {
  if (actor.kind !== 'person') return undefined;
  const known = actor.roles?.[community.id];
  if (known) return known;
  return (await store.community(community.id).access.members.get(actor.personId))?.role;
}

/** Administration of a community (agents, keys, policies, members, audit): system or admin/owner. */
export async function requireCommunityAdmin(store: Store, actor: Actor, community: Community, what: string): Promise<void> {
  if (actor.kind === 'system') return;
  if (actor.kind === 'anonymous') {
    throw new DomainError('unauthorized', `Sign in as an administrator of "${community.slug}" to ${what}.`);
  }
  if (actor.kind === 'person' && roleAtLeast(await roleOf(store, actor, community), 'admin')) return;
  throw new DomainError('forbidden', `Only an administrator of "${community.slug}" can ${what}. Ask an admin (or the owner) to do it.`);
}

/** Approving or rejecting queued writes: moderators and up, agents with approval:decide, the system. */
export async function requireDecider(store: Store, actor: Actor, community: Community): Promise<void> {
  if (actor.kind === 'system') return;
  if (actor.kind === 'anonymous') {
    throw new DomainError('unauthorized', `Deciding approvals needs a moderator of "${community.slug}" signed in, or an agent key with the "approval:decide" scope.`);
  }
  if (actor.kind === 'agent') {
    if (actor.communityId !== community.id) {
      throw new DomainError('forbidden', `This agent belongs to another community. Use an agent key of "${community.slug}".`);
    }
    requireScope(actor, 'approval:decide');
    return;
  }
  if (roleAtLeast(await roleOf(store, actor, community), 'moderator')) return;
  throw new DomainError('forbidden', `Only moderators of "${community.slug}" can approve or reject queued writes. Ask a moderator to decide it.`);
}
