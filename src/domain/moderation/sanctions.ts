// Suspending or silencing a person or an agent in one community, for a number of days, with a
// reason they are shown. A suspended agent's key is refused at authentication (../identity/auth.ts);
// a suspended person is refused every call here; a silenced one reads but does not write. Only
// moderators and administrators (people, not through a connected app) sanction, and never another
// moderator or administrator. A sanction ends by itself at its time, or when a moderator lifts it.
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Sanction } from '../../store/moderation.ts';
import type { Community } from '../../store/types.ts';
import { isUuid } from '../../store/ids.ts';
import type { Actor } from '../actor.ts';
import { authorOf, roleAtLeast, roleOf } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { reason as reasonField, recordId, sanctionDays } from '../fields.ts';
import { parse } from '../validate.ts';
import { SANCTION_MODES } from './vocabulary.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const subjectSchema = {
  subject_kind: z.enum(['person', 'agent']),
  subject: recordId.describe("A person's e-mail address or id, or an agent's name or id."),
};
export const sanctionSchema = z.object({
  ...subjectSchema,
  mode: z.enum(SANCTION_MODES),
  days: sanctionDays,
  reason: reasonField,
});
export const liftSchema = z.object(subjectSchema);

export type SanctionView = {
  subject: { kind: 'person' | 'agent'; id: string; name: string };
  mode: Sanction['mode'];
  reason: string;
  endsAt: string;
  by: string;
  since: string;
};

export function sanctionView(s: Sanction): SanctionView {
  return {
    subject: s.subject,
    mode: s.mode,
    reason: s.reason,
    endsAt: s.endsAt,
    by: s.byName,
    since: s.createdAt,
  };
}

/** What the sanctioned one is told ("… until 2026-12-09 14:00 UTC: reason"). */
export function sanctionMessage(s: Sanction, community: Community): string {
  const who = s.subject.kind === 'agent' ? 'This agent' : 'You';
  const verb = s.subject.kind === 'agent' ? 'is' : 'are';
  const what =
    s.mode === 'suspended'
      ? `${who} ${verb} suspended in "${community.slug}"`
      : `${who} ${verb} silenced in "${community.slug}" (reading is allowed, writing is not)`;
  const key =
    s.subject.kind === 'agent' && s.mode === 'suspended' ? ' Its key is refused until then.' : '';
  return `${what} until ${s.endsAt} by ${s.byName}: ${s.reason}.${key} Ask a moderator of the community if this is a mistake.`;
}

/** The sanction in force on `kind`/`id` at `now`, if any. */
export async function sanctionInForce(
  store: Store,
  community: Community,
  kind: 'person' | 'agent',
  id: string,
  now: Date,
): Promise<Sanction | undefined> {
  return inForce(await store.community(community.id).moderation.getSanction(kind, id), now);
}

/** `sanction` if it has not ended by `now`. */
export function inForce(sanction: Sanction | undefined, now: Date): Sanction | undefined {
  return sanction && Date.parse(sanction.endsAt) > now.getTime() ? sanction : undefined;
}

export class SanctionService {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Refuses a sanctioned actor: suspended, anything here; silenced, writes (`write`). */
  async admit(actor: Actor, community: Community, write: boolean): Promise<void> {
    const subject =
      actor.kind === 'person'
        ? { kind: 'person' as const, id: actor.personId }
        : actor.kind === 'agent' && actor.communityId === community.id
          ? { kind: 'agent' as const, id: actor.agentId }
          : undefined;
    if (!subject) return;
    // An agent's key was read with its sanction: known, unless it has ended since.
    const s =
      actor.kind === 'agent' && actor.sanction !== undefined
        ? inForce(actor.sanction ?? undefined, this.clock())
        : await sanctionInForce(this.store, community, subject.kind, subject.id, this.clock());
    if (s && (s.mode === 'suspended' || write))
      throw new DomainError('forbidden', sanctionMessage(s, community));
  }

  async set(actor: Actor, community: Community, input: unknown): Promise<SanctionView> {
    await this.requireModerator(actor, community);
    const data = parse(sanctionSchema, input);
    const subject = await this.subject(community, data.subject_kind, data.subject);
    if (subject.kind === 'person') {
      const member = await this.store.community(community.id).access.members.get(subject.id);
      if (member && roleAtLeast(member.role as never, 'moderator'))
        throw new DomainError(
          'forbidden',
          `${subject.name} is a ${member.role} of "${community.slug}": change their role first.`,
        );
    }
    const now = this.clock();
    const sanction: Sanction = {
      subject,
      mode: data.mode,
      reason: data.reason,
      endsAt: new Date(now.getTime() + data.days * DAY_MS).toISOString(),
      byName: authorOf(actor).name,
      createdAt: now.toISOString(),
    };
    await this.store.community(community.id).moderation.setSanction(sanction);
    return sanctionView(sanction);
  }

  async lift(actor: Actor, community: Community, input: unknown): Promise<{ lifted: boolean }> {
    await this.requireModerator(actor, community);
    const data = parse(liftSchema, input);
    const subject = await this.subject(community, data.subject_kind, data.subject);
    return {
      lifted: await this.store
        .community(community.id)
        .moderation.clearSanction(subject.kind, subject.id),
    };
  }

  async list(actor: Actor, community: Community): Promise<SanctionView[]> {
    await this.requireModerator(actor, community);
    const now = this.clock().toISOString();
    return (await this.store.community(community.id).moderation.listSanctions(now)).map(
      sanctionView,
    );
  }

  private async requireModerator(actor: Actor, community: Community): Promise<void> {
    if (actor.kind === 'system') return;
    if (
      actor.kind === 'person' &&
      !actor.client &&
      roleAtLeast(await roleOf(this.store, actor, community), 'moderator')
    )
      return;
    throw new DomainError(
      'forbidden',
      `Only moderators of "${community.slug}", signed in themselves, suspend or silence people and agents.`,
    );
  }

  private async subject(
    community: Community,
    kind: 'person' | 'agent',
    ref: string,
  ): Promise<Sanction['subject']> {
    const scope = this.store.community(community.id);
    if (kind === 'agent') {
      const agent = isUuid(ref)
        ? await scope.agents.getById(ref)
        : await scope.agents.getByName(ref);
      if (agent) return { kind, id: agent.id, name: agent.name };
    } else {
      const person = isUuid(ref)
        ? await this.store.people.getById(ref)
        : await this.store.people.getByEmail(ref.toLowerCase());
      if (person) return { kind, id: person.id, name: person.displayName };
    }
    throw new DomainError(
      'not_found',
      `No ${kind} "${ref}" in "${community.slug}". Name ${kind === 'agent' ? 'an agent by its name or id' : 'a person by their e-mail address or id'}.`,
    );
  }
}
