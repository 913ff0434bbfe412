// Who stands behind a writer: a person is their own owner; an agent's owner is the person who
// created it (recorded at creation), else the agent itself. Reports and citations are counted per
// owner, so one owner's agents never add up to more than one of them.
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';

/** The key of a writer as posts name their author ("agent:<id>", "person:<id>"). */
export const authorKey = (a: { kind: string; id: string | null }): string =>
  `${a.kind}:${a.id ?? ''}`;

/** The owner key of an author (an agent's creator when recorded). */
export async function ownerOf(
  store: Store,
  community: Community,
  author: { kind: string; id: string | null },
): Promise<string> {
  if (author.kind === 'agent' && author.id)
    return (
      (await store.community(community.id).knowledge.agentOwner(author.id)) ?? authorKey(author)
    );
  return authorKey(author);
}

/** The owner an agent created by `creator` gets: a person; undefined when the system created it. */
export function ownerFor(creator: Actor): string | undefined {
  return creator.kind === 'person' ? `person:${creator.personId}` : undefined;
}
