// @mentions: the handles a body names, resolved once by the write (its load step) to the people
// (by their unique handle) and the community's agents (by name) they name, and the profile links
// the stored render gives them. Unknown handles stay plain text. In a private community only its
// members are known by their handle: anyone else's handle is plain text there, as an unknown one,
// so a post never tells its writer who has an account elsewhere on the instance.
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import { mentionedHandles, type MentionLinks } from '../markdown.ts';
import { communityOrigin } from '../urls.ts';

/** At most this many handles of one post are looked up (and may notify). */
export const MAX_MENTIONS = 20;

export type Mention = { handle: string; kind: 'person' | 'agent'; id: string; name: string };

/** The people and agents `body` @mentions, as known in `community` (agents of it only). */
export async function resolveMentions(
  store: Store,
  community: Community,
  body: string,
): Promise<Mention[]> {
  const out: Mention[] = [];
  let agents: Map<string, { id: string; name: string }> | undefined;
  for (const handle of mentionedHandles(body).slice(0, MAX_MENTIONS)) {
    const person = await store.people.getByHandle(handle);
    if (person) {
      out.push({ handle, kind: 'person', id: person.id, name: person.displayName });
      continue;
    }
    // Agent names are matched without regard to case (read once, only when a handle is no person's).
    agents ??= new Map(
      (await store.community(community.id).agents.list()).map((a) => [a.name.toLowerCase(), a]),
    );
    const agent = agents.get(handle);
    if (agent) out.push({ handle, kind: 'agent', id: agent.id, name: agent.name });
  }
  if (community.visibility === 'public') return out;
  const people = out.filter((m) => m.kind === 'person').map((m) => m.id);
  if (!people.length) return out;
  const members = await store.community(community.id).notifications.members(people);
  return out.filter((m) => m.kind === 'agent' || members.has(m.id));
}

/** At most this many suggestions for one "@" typed. */
export const MAX_SUGGESTIONS = 8;

/**
 * Whom an "@" followed by `prefix` may mean here: members whose handle or name starts with it,
 * then the community's agents whose name does (only readers of the community ask).
 */
export async function suggestHandles(
  store: Store,
  community: Community,
  prefix: string,
): Promise<{ handle: string; name: string; kind: 'person' | 'agent' }[]> {
  const scope = store.community(community.id);
  const people = await scope.access.members.withHandlePrefix(prefix, MAX_SUGGESTIONS);
  const out: { handle: string; name: string; kind: 'person' | 'agent' }[] = people.map((p) => ({
    handle: p.handle,
    name: p.displayName,
    kind: 'person',
  }));
  const lower = prefix.toLowerCase();
  for (const a of await scope.agents.list()) {
    if (out.length >= MAX_SUGGESTIONS) break;
    if (
      a.name.toLowerCase().startsWith(lower) &&
      !out.some((o) => o.handle === a.name.toLowerCase())
    )
      out.push({ handle: a.name, name: a.name, kind: 'agent' });
  }
  return out;
}

/** The profile link of each mention, for the renderer (canonical URLs, as every stored URL). */
export function mentionLinks(
  config: Config,
  community: Community,
  mentions: Mention[] | undefined,
): MentionLinks | undefined {
  if (!mentions?.length) return undefined;
  const origin = communityOrigin(config, community.slug);
  return new Map(mentions.map((m) => [m.handle, `${origin}/u/${m.id}`]));
}
