// Bookmarks: a person keeps a topic or one post to come back to, and finds them again newest first.
// A person's bookmarks are theirs alone (every read and write is of the signed-in person's own). A
// bookmark shows only what its owner may read now: a topic or post deleted by a moderator is left
// out (moderators still see it), and so is a hidden post, or a topic whose question is hidden
// (those who decide the review queue still see them): a bookmark never shows more than the topic
// page would. Setting one is a personal write (../writes/bookmark-set.ts).
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Bookmark } from '../../store/bookmarks.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor, PersonActor } from '../actor.ts';
import { requireRead } from '../authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../cursor.ts';
import { DomainError } from '../errors.ts';
import { cursor, pageLimit, recordId } from '../fields.ts';
import { mayRead } from '../moderation-reads.ts';
import { topicUrl } from '../urls.ts';
import { parse } from '../validate.ts';
import { authorView, type AuthorView } from '../views.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import type { UseCase } from '../writes/use-case.ts';

export type BookmarkView = {
  id: string;
  kind: 'topic' | 'post';
  topic: { id: string; slug: string; title: string };
  /** The bookmarked post; null for a bookmark of the whole topic. */
  post: { id: string; position: number; author: AuthorView; excerpt: string } | null;
  url: string;
  createdAt: string;
};

const EXCERPT = 280;
const listSchema = z.object({
  cursor: cursor.optional(),
  limit: pageLimit(50, 20),
  among: z.array(recordId).max(100).optional(),
});

/** A bookmark is a person's: agents have none. */
export function requireBookmarker(actor: Actor, community: Community): PersonActor {
  requireRead(actor, community);
  if (actor.kind !== 'person')
    throw new DomainError(
      'forbidden',
      'Bookmarks are for people. An agent keeps what it needs itself, or follows a topic with resources/subscribe.',
    );
  return actor;
}

export class BookmarkService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly runner: WriteRunner,
  ) {}

  /**
   * The person's bookmarks, newest first, one page after `cursor`; or with `among` only theirs of
   * those topic and post ids (unpaged). What they may not read now is left out, so a page may hold
   * fewer than `limit`: follow next_cursor until it is null.
   */
  async list(
    actor: Actor,
    community: Community,
    input: z.input<typeof listSchema>,
  ): Promise<{ bookmarks: BookmarkView[]; nextCursor: string | null }> {
    const person = requireBookmarker(actor, community);
    const data = parse(listSchema, input);
    const scope = this.store.community(community.id);
    if (data.among)
      return {
        bookmarks: await this.shown(
          actor,
          community,
          await scope.bookmarks.among(person.personId, data.among),
        ),
        nextCursor: null,
      };
    const listing = 'bookmarks';
    const page = await scope.bookmarks.list(person.personId, {
      after: decodeCursor(listing, data.cursor, CURSOR_SHAPES.byTime),
      limit: data.limit,
    });
    return {
      bookmarks: await this.shown(actor, community, page.items),
      nextCursor: page.next ? encodeCursor(listing, page.next) : null,
    };
  }

  /** Runs the bookmark write (bookmark.set) through the runner. */
  async write<I, L, R>(
    actor: Actor,
    community: Community,
    use: UseCase<I, L, R>,
    input: unknown,
    options: RunOptions = {},
  ): Promise<R> {
    return this.runner.run(use, actor, community, input, options);
  }

  /** The bookmarks as views, without those whose topic or post the actor may not read now. */
  private async shown(
    actor: Actor,
    community: Community,
    items: Bookmark[],
  ): Promise<BookmarkView[]> {
    const scope = this.store.community(community.id);
    const views: BookmarkView[] = [];
    for (const b of items) {
      const post = b.target.kind === 'post' ? await scope.posts.getById(b.target.id) : undefined;
      if (b.target.kind === 'post' && !post) continue;
      // A post's topic is the one that holds it now (a merge moves posts).
      const topic = await scope.topics.getById(post ? post.topicId : b.target.id);
      if (!topic || !(await mayRead(this.store, actor, community, topic, post))) continue;
      views.push({
        id: b.id,
        kind: b.target.kind,
        topic: { id: topic.id, slug: topic.slug, title: topic.title },
        post: post
          ? {
              id: post.id,
              position: post.position,
              author: authorView(post.author, community),
              excerpt:
                post.body.length > EXCERPT ? `${post.body.slice(0, EXCERPT - 1)}…` : post.body,
            }
          : null,
        url: topicUrl(this.config, community, topic.slug, post?.id),
        createdAt: b.createdAt,
      });
    }
    return views;
  }
}
