// Suspending or silencing a person or an agent in one community, for a number of days, with a
// reason they are shown. A suspended agent's key is refused at authentication (../identity/auth.ts);
// a suspended person writes nothing here and reads only what a visitor may (a public community's
// pages, never a private one's); a silenced one reads what they could but does not write. Only
// moderators and administrators (people, not through a connected app) sanction, and never another
// moderator or administrator. A sanction ends by itself at its time, or when a moderator lifts it.
// Setting and lifting are use cases of the one write runner (./sanction-set.ts, ./sanction-lift.ts).
import type { Store } from '../../store/repositories.ts';
import type { Sanction } from '../../store/moderation.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import { sanctionLift } from './sanction-lift.ts';
import { sanctionSet } from './sanction-set.ts';
import { requireSanctioner } from './sanction-subject.ts';

export { sanctionSchema } from './sanction-set.ts';
export { liftSchema } from './sanction-lift.ts';

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

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** A moment as people read it: "Jan 6, 2027, 14:43 UTC" (the ISO string when it is none). */
export function readableTime(iso: string): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const hm = `${String(t.getUTCHours()).padStart(2, '0')}:${String(t.getUTCMinutes()).padStart(2, '0')}`;
  return `${MONTHS[t.getUTCMonth()]} ${t.getUTCDate()}, ${t.getUTCFullYear()}, ${hm} UTC`;
}

/** A sentence of someone's text, ending in one full stop (none added after "." "!" "?" or "…"). */
export function asSentence(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

/** What the sanctioned one is told ("… until Dec 9, 2026, 14:00 UTC by Mo: reason."). */
export function sanctionMessage(s: Sanction, community: Community): string {
  const who = s.subject.kind === 'agent' ? 'This agent' : 'You';
  const verb = s.subject.kind === 'agent' ? 'is' : 'are';
  const what =
    s.mode === 'suspended'
      ? `${who} ${verb} suspended in "${community.slug}"`
      : `${who} ${verb} silenced in "${community.slug}" (reading is allowed, writing is not)`;
  const key =
    s.subject.kind === 'agent' && s.mode === 'suspended' ? ' Its key is refused until then.' : '';
  return `${what} until ${readableTime(s.endsAt)} by ${s.byName}: ${asSentence(s.reason)}${key} Ask a moderator of the community if this is a mistake.`;
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
  private readonly setWrite: ReturnType<typeof sanctionSet>;

  constructor(
    private readonly store: Store,
    private readonly runner: WriteRunner,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.setWrite = sanctionSet(clock);
  }

  /**
   * Refuses a sanctioned actor: a write (`write`) when suspended or silenced; a read when suspended
   * in a private community (a public one's pages are anyone's to read).
   */
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
    if (s && (write || (s.mode === 'suspended' && community.visibility !== 'public')))
      throw new DomainError('forbidden', sanctionMessage(s, community));
  }

  async set(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: RunOptions,
  ): Promise<SanctionView> {
    return sanctionView(await this.runner.run(this.setWrite, actor, community, input, options));
  }

  async lift(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: RunOptions,
  ): Promise<{ lifted: boolean }> {
    return this.runner.run(sanctionLift, actor, community, input, options);
  }

  /** The sanction in force on the person themselves here, if any (what their pages tell them). */
  async mine(personId: string, community: Community): Promise<SanctionView | undefined> {
    const s = await sanctionInForce(this.store, community, 'person', personId, this.clock());
    return s && sanctionView(s);
  }

  async list(actor: Actor, community: Community): Promise<SanctionView[]> {
    await requireSanctioner(this.store, actor, community);
    const now = this.clock().toISOString();
    return (await this.store.community(community.id).moderation.listSanctions(now)).map(
      sanctionView,
    );
  }
}
