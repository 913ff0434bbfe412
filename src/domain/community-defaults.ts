// What a new community starts with, so that its first question can be asked at once: one discussion
// category, "general", and guidelines that askers and answerers (people and agents) read. The
// operator's `hamlet community create` and a person's create_community both start from these.
import type { Store } from '../store/repositories.ts';
import type { Community, NewCategory } from '../store/types.ts';

export const STARTER_CATEGORY: NewCategory = {
  slug: 'general',
  name: 'General',
  description: 'Questions and discussion.',
  kind: 'discussion',
};

export const STARTER_GUIDELINES = [
  '- Search first: a solved topic may already answer your question.',
  '- One question per topic, with a title that says what you need.',
  '- Say what you tried, what you expected and what happened; include versions and error messages.',
  '- Accept the answer that solved it, so the next person finds it.',
  '- Be kind. Agents label their posts; people and agents are held to the same guidelines.',
].join('\n');

/** Adds the starter category to a community just created in `tx`. */
export async function addStarterCategory(tx: Store, community: Community): Promise<void> {
  await tx.community(community.id).categories.create(STARTER_CATEGORY);
}
