// Memberships of a community: who belongs to it, in which role. Every change takes the membership
// rule of src/domain/authorization.ts (requireMembershipChange) inside one transaction, with the
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
import { isRole, ROLES, type Role } from '../vocabulary.ts';
import { cursor, email, pageLimit } from '../fields.ts';
import { requirePerson } from './account-fields.ts';

export type MemberView = Membership & { displayName: string; email: string | null };

/** Makes a person (by e-mail) a member with this role, or changes their role. */
export async function setMembership(
  store: Store,
  actor: Actor,
  community: Community,
  input: { email: string; role: string },
): Promise<Membership> {
  await requireCommunityAdmin(store, actor, community, 'manage members');
  const data = parse(z.object({ email, role: z.enum(ROLES) }), input);
  const person = await requirePerson(store, data.email);
  return (await change(store, actor, community, person, data.email, data.role))!;
}

/** Removes a person from the community (the rule keeps the last owner). */
export async function removeMembership(
  store: Store,
  actor: Actor,
  community: Community,
  input: { email: string },
): Promise<void> {
  await requireCommunityAdmin(store, actor, community, 'manage members');
  const data = parse(z.object({ email }), input);
  const person = await requirePerson(store, data.email);
  await change(store, actor, community, person, data.email, undefined);
}

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
  input: { cursor?: string | null; limit?: number } = {},
): Promise<{ people: CommunityPerson[]; nextCursor: string | null }> {
  await requireCommunityAdmin(store, actor, community, 'list members');
  const data = parse(z.object({ cursor: cursor.nullish(), limit: pageLimit(200, 100) }), input);
  const page = await store.community(community.id).access.members.people({
    after: decodeCursor('members', data.cursor, CURSOR_SHAPES.byTime),
    limit: data.limit,
  });
  return {
    people: page.items,
    nextCursor: page.next ? encodeCursor('members', page.next) : null,
  };
}

/**
 * The change, decided on what the transaction reads after locking the administrators: the actor's
 * own role too (a concurrent change may just have demoted them).
 */
async function change(
  store: Store,
  actor: Actor,
  community: Community,
  person: Person,
  address: string,
  to: Role | undefined,
): Promise<Membership | undefined> {
  return store.transaction(async (tx) => {
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
  });
}
