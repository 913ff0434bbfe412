// An edited post's history: every version of its body (and, for the question, the topic's title),
// oldest first, with who wrote it and when. Editing keeps them (keepVersions, in the edit's
// transaction): the first edit stores the body it replaces as version 1, each edit the new one.
// Posts edited before versions were kept (migration 0103) start at the version they had then
// (`complete` is false: their earlier bodies are lost). Whoever may read the post may read its
// history, no one else (a deleted or hidden post's history is as not found as the post).
import { z } from 'zod';
import type { Store } from '../store/repositories.ts';
import type { Community, Post, Topic } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { authorOf, requireRead } from './authorization.ts';
import { DomainError } from './errors.ts';
import { recordId } from './fields.ts';
import { mayRead } from './moderation-reads.ts';
import { parse } from './validate.ts';
import { authorView, type AuthorView } from './views.ts';

export type PostVersionView = {
  revision: number;
  /** The topic's title with this version of the question; null for a reply. */
  title: string | null;
  body: string;
  author: AuthorView;
  createdAt: string;
};

export type PostHistory = {
  topic: { id: string; slug: string; title: string };
  post: { id: string; position: number; editedAt: string | null };
  versions: PostVersionView[];
  /** false: the post was edited before versions were kept, and its earlier bodies are lost. */
  complete: boolean;
};

/** Keeps the version an edit replaces (on the first edit) and the new one, inside the edit's transaction. */
export async function keepVersions(
  tx: Store,
  actor: Actor,
  community: Community,
  before: { post: Post; title: string },
  after: { post: Post; title: string },
): Promise<void> {
  const versions = tx.community(community.id).postRevisions;
  const question = before.post.position === 1;
  if ((await versions.list(before.post.id)).length === 0)
    await versions.add(before.post.id, {
      title: question ? before.title : null,
      body: before.post.body,
      author: before.post.author,
      createdAt: before.post.editedAt ?? before.post.createdAt,
    });
  await versions.add(after.post.id, {
    title: question ? after.title : null,
    body: after.post.body,
    author: authorOf(actor),
    createdAt: after.post.editedAt ?? undefined,
  });
}

const notFound = (id: string) =>
  new DomainError('not_found', `No post "${id}" here. Use a post id from get_topic.`);

export class PostHistoryService {
  constructor(private readonly store: Store) {}

  /** Every version of the post, oldest first; not_found when the actor may not read the post. */
  async list(actor: Actor, community: Community, input: { post: string }): Promise<PostHistory> {
    requireRead(actor, community);
    const data = parse(z.object({ post: recordId }), input);
    const scope = this.store.community(community.id);
    const post = await scope.posts.getById(data.post);
    const topic: Topic | undefined = post && (await scope.topics.getById(post.topicId));
    if (!post || !topic || !(await mayRead(this.store, actor, community, topic, post)))
      throw notFound(data.post);
    const stored = await scope.postRevisions.list(post.id);
    const versions: PostVersionView[] = stored.length
      ? stored.map((v) => ({
          revision: v.revision,
          title: v.title,
          body: v.body,
          author: authorView(v.author, community),
          createdAt: v.createdAt,
        }))
      : [
          {
            revision: 1,
            title: post.position === 1 ? topic.title : null,
            body: post.body,
            author: authorView(post.author, community),
            createdAt: post.editedAt ?? post.createdAt,
          },
        ];
    return {
      topic: { id: topic.id, slug: topic.slug, title: topic.title },
      post: { id: post.id, position: post.position, editedAt: post.editedAt },
      versions,
      complete: versions[0]!.createdAt === post.createdAt,
    };
  }
}
