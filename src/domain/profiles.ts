// Profile pages: who a person or an agent is in one community (name, since when, role, a person's
// bio and picture here) and what they posted there, newest first, found by id, a person's @handle
// or an agent's name. A person is shown only where they belong (a member, or an author of posts
// there): a profile never reveals accounts of other communities, and never an e-mail address.
// Changing one's own is the use case ./profile-set.ts.
import { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { requireRead } from './authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from './cursor.ts';
import { DomainError } from './errors.ts';
import { cursor, pageLimit, recordId } from './fields.ts';
import { isUuid } from '../store/ids.ts';
import { uploadUrl } from './uploads/links.ts';
import type { RunOptions, WriteRunner } from './writes/runner.ts';
import { profileSet } from './profile-set.ts';
import { parse } from './validate.ts';
import { currentPosts } from './rendering.ts';
import { agentLabel, postView, type PostView } from './views.ts';

const profileSchema = z.object({
  id: recordId,
  cursor: cursor.nullish(),
  limit: pageLimit(50, 20),
});

export type ProfilePost = PostView & { topic: { id: string; slug: string; title: string } };

export type Profile = {
  kind: 'person' | 'agent';
  id: string;
  name: string;
  /** What an @mention of them writes: a person's handle, an agent's name. */
  handle: string | null;
  /** For agents: "posted by agent X on behalf of community Y". */
  label: string | null;
  /** The person's role in this community, if a member. */
  role: string | null;
  /** What the person says of themselves here ("" when nothing; agents: ""). */
  bio: string;
  /** The picture they chose here (an image upload's URL); null: the generated initials. */
  avatarUrl: string | null;
  since: string;
  posts: ProfilePost[];
  nextCursor: string | null;
};

export class ProfileService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly runner: WriteRunner,
  ) {}

  /** The signed-in person changes their name, or their bio or picture here (./profile-set.ts). */
  async set(actor: Actor, community: Community, input: unknown, options?: RunOptions) {
    return this.runner.run(profileSet, actor, community, input, options);
  }

  async get(
    actor: Actor,
    community: Community,
    input: z.input<typeof profileSchema>,
  ): Promise<Profile> {
    requireRead(actor, community);
    const data = parse(profileSchema, input);
    const scope = this.store.community(community.id);
    const notFound = () =>
      new DomainError('not_found', `No person or agent "${data.id}" in "${community.slug}".`);
    // An id, or a name: a person's @handle (the @ optional), else an agent's name.
    const byId = isUuid(data.id);
    const named = data.id.replace(/^@/, '');
    const handled = byId ? undefined : await this.store.people.getByHandle(named);
    const agent = byId
      ? await scope.agents.getById(data.id)
      : handled
        ? undefined
        : await scope.agents.getByName(named);
    const person = agent ? undefined : byId ? await this.store.people.getById(data.id) : handled;
    if (!agent && !person) throw notFound();
    const kind = agent ? 'agent' : 'person';
    const id = agent ? agent.id : person!.id;
    const listing = `profile:${id}`;
    const page = await scope.posts.listByAuthor(
      { kind, id },
      { after: decodeCursor(listing, data.cursor, CURSOR_SHAPES.byTime), limit: data.limit },
    );
    const [membership, shown] = person
      ? await Promise.all([
          scope.access.members.get(person.id),
          scope.memberProfiles.get(person.id),
        ])
      : [undefined, undefined];
    const picture = shown?.avatarUploadId
      ? await scope.uploads.get(shown.avatarUploadId)
      : undefined;
    if (person && !membership && page.items.length === 0 && !data.cursor) throw notFound();
    const topics = await scope.topics.headers(page.items.map((p) => p.topicId));
    const posts = (await currentPosts(scope, page.items)).flatMap((p) => {
      const t = topics.get(p.topicId);
      return t
        ? [
            {
              ...postView(this.config, community, t, p),
              topic: { id: t.id, slug: t.slug, title: t.title },
            },
          ]
        : [];
    });
    return {
      kind,
      id,
      name: agent ? agent.name : person!.displayName,
      handle: agent ? agent.name.toLowerCase() : (person!.handle ?? null),
      label: agent ? agentLabel(agent.name, community.slug) : null,
      role: membership?.role ?? null,
      bio: shown?.bio ?? '',
      avatarUrl: picture ? uploadUrl(this.config, community, picture) : null,
      since: agent ? agent.createdAt : (membership?.createdAt ?? person!.createdAt),
      posts,
      nextCursor: page.next ? encodeCursor(listing, page.next) : null,
    };
  }
}
