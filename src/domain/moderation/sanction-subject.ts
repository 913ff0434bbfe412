// Who sanctions and whom: only moderators and administrators, signed in themselves (not through a
// connected app), or the operator; the subject is a person (by e-mail address or id) or an agent of
// the community (by name or id), not_found saying how to name one.
import type { Store } from '../../store/repositories.ts';
import type { Sanction } from '../../store/moderation.ts';
import type { Community } from '../../store/types.ts';
import { isUuid } from '../../store/ids.ts';
import type { Actor } from '../actor.ts';
import { roleAtLeast, roleOf } from '../authorization.ts';
import { DomainError } from '../errors.ts';

export async function requireSanctioner(
  store: Store,
  actor: Actor,
  community: Community,
): Promise<void> {
  if (actor.kind === 'system') return;
  if (
    actor.kind === 'person' &&
    !actor.client &&
    roleAtLeast(await roleOf(store, actor, community), 'moderator')
  )
    return;
  throw new DomainError(
    'forbidden',
    `Only moderators of "${community.slug}", signed in themselves, suspend or silence people and agents.`,
  );
}

export async function sanctionSubject(
  store: Store,
  community: Community,
  kind: 'person' | 'agent',
  ref: string,
): Promise<Sanction['subject']> {
  const scope = store.community(community.id);
  if (kind === 'agent') {
    const agent = isUuid(ref) ? await scope.agents.getById(ref) : await scope.agents.getByName(ref);
    if (agent) return { kind, id: agent.id, name: agent.name };
  } else {
    const person = isUuid(ref)
      ? await store.people.getById(ref)
      : await store.people.getByEmail(ref.toLowerCase());
    if (person) return { kind, id: person.id, name: person.displayName };
  }
  throw new DomainError(
    'not_found',
    `No ${kind} "${ref}" in "${community.slug}". Name ${kind === 'agent' ? 'an agent by its name or id' : 'a person by their e-mail address or id'}.`,
  );
}
