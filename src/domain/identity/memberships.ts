// Memberships of a community: who belongs to it, in which role. Every change (./member-set.ts,
// ./member-remove.ts, use cases of the one write runner) takes the membership rule of
// src/domain/authorization.ts (requireMembershipChange) inside its transaction, with the
// community's owners and admins locked first, so two concurrent changes cannot both take the last
// owner away. AccountService offers these to every face (REST, web, CLI).
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community, Person } from '../../store/types.ts';
import type { CommunityPerson, Membership } from '../../store/identity.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../cursor.ts';
import type { Actor } from '../actor.ts';
import {
  ADMINISTRATOR_ROLES,
  requireCommunityAdmin,
  requireMembershipChange,
} from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { parse } from '../validate.ts';
import { isRole, type Role } from '../vocabulary.ts';
import { cursor, memberQuery, pageLimit } from '../fields.ts';

export type MemberView = Membership & { displayName: string; email: string | null };

export async function listMemberships(
  store: Store,
  actor: Actor,
  community: Community,
): Promise<MemberView[]> {
  await requireCommunityAdmin(store, actor, community, 'list members');
  const members = await store.community(community.id).access.members.list();
  return Promise.all(
    members.map(async (m) => {
      const p = await store.people.getById(m.personId);
      return { ...m, displayName: p?.displayName ?? '', email: p?.email ?? null };
    }),
  );
}

/**
 * Everyone of the community, for its administrators: role holders and people who posted there
 * without a role (role null), newest joined first, a page at a time.
 */
export async function listPeople(
  store: Store,
  actor: Actor,
  community: Community,
  input: { cursor?: string | null; limit?: number; query?: string } = {},
): Promise<{ people: CommunityPerson[]; nextCursor: string | null }> {
  await requireCommunityAdmin(store, actor, community, 'list members');
  const data = parse(
    z.object({
      cursor: cursor.nullish(),
      limit: pageLimit(200, 100),
      query: memberQuery.optional(),
    }),
    input,
  );
  const page = await store.community(community.id).access.members.people({
    after: decodeCursor('members', data.cursor, CURSOR_SHAPES.byTime),
    limit: data.limit,
    ...(data.query ? { query: data.query } : {}),
  });
  return {
    people: page.items,
    nextCursor: page.next ? encodeCursor('members', page.next) : null,
  };
}

/**
 * The change, through `tx` (the write's transaction: ./member-set.ts, ./member-remove.ts), decided
 * on what it reads after locking the administrators: the actor's own role too (a concurrent change
 * may just have demoted them).
 */
export async function changeMembership(
  tx: Store,
  actor: Actor,
  community: Community,
  person: Person,
  address: string,
  to: Role | undefined,
): Promise<Membership | undefined> {
  const members = tx.community(community.id).access.members;
  const administrators = await members.lockHolders(ADMINISTRATOR_ROLES);
  const current = await members.get(person.id);
  if (!current && to === undefined)
    throw new DomainError('not_found', `${address} is not a member of "${community.slug}".`);
  const roleOf = (m: Membership | undefined) => (m && isRole(m.role) ? m.role : undefined);
  const actorRole =
    actor.kind === 'person'
      ? roleOf(administrators.find((m) => m.personId === actor.personId))
      : undefined;
  const self = actor.kind === 'person' && actor.personId === person.id;
  requireMembershipChange(
    actor,
    actorRole,
    community,
    { email: address, self, from: roleOf(current), to },
    administrators.map(roleOf).filter((r): r is Role => r !== undefined),
  );
  if (to === undefined) {
    await members.remove(person.id);
    return undefined;
  }
  return members.set(person.id, to);
}
