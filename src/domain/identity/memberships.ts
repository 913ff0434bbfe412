// Memberships of people in a community, with their roles, as its administrators manage them: add
// or change a member (only an owner makes owners), remove one (never the last owner), list them.
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Membership } from '../../store/identity.ts';
import { ROLES, type Role } from '../vocabulary.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { parse } from '../validate.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { emailSchema, requirePerson } from './account-fields.ts';

export class Memberships {
  constructor(private readonly store: Store) {}

  async addMember(
    actor: Actor,
    community: Community,
    input: { email: string; role: string },
  ): Promise<Membership> {
    await requireCommunityAdmin(this.store, actor, community, 'manage members');
    const data = parse(z.object({ email: emailSchema, role: z.enum(ROLES) }), input);
    if (data.role === 'owner' && actor.kind !== 'system') {
      const mine =
        actor.kind === 'person'
          ? await this.store.community(community.id).access.members.get(actor.personId)
          : undefined;
      if (mine?.role !== 'owner')
        throw new DomainError(
          'forbidden',
          `Only an owner of "${community.slug}" can make someone an owner.`,
        );
    }
    const person = await requirePerson(this.store, data.email);
    return this.store.community(community.id).access.members.set(person.id, data.role as Role);
  }

  /** Removes a person from the community; the last owner stays. */
  async removeMember(actor: Actor, community: Community, input: { email: string }): Promise<void> {
    await requireCommunityAdmin(this.store, actor, community, 'manage members');
    const data = parse(z.object({ email: emailSchema }), input);
    const person = await requirePerson(this.store, data.email);
    const members = this.store.community(community.id).access.members;
    const current = await members.get(person.id);
    if (!current)
      throw new DomainError('not_found', `${data.email} is not a member of "${community.slug}".`);
    if (
      current.role === 'owner' &&
      (await members.list()).filter((m) => m.role === 'owner').length === 1
    ) {
      throw new DomainError(
        'conflict',
        `${data.email} is the last owner of "${community.slug}": make someone else an owner first.`,
      );
    }
    await members.remove(person.id);
  }

  async listMembers(
    actor: Actor,
    community: Community,
  ): Promise<(Membership & { displayName: string; email: string | null })[]> {
    await requireCommunityAdmin(this.store, actor, community, 'list members');
    const members = await this.store.community(community.id).access.members.list();
    return Promise.all(
      members.map(async (m) => {
        const p = await this.store.people.getById(m.personId);
        return { ...m, displayName: p?.displayName ?? '', email: p?.email ?? null };
      }),
    );
  }
}
