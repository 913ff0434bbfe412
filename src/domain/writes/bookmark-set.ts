// bookmark.set: the person bookmarks a topic or one post (bookmarked: true), or takes the bookmark
// back (false); doing what is already so changes nothing. One bookmark per person and thing. Only
// what the person may read now can be bookmarked or unbookmarked: anything else is the same
// not_found as a topic or post that does not exist, so a bookmark tells nobody what was deleted
// or hidden. A bookmark is the person's own: nobody queues or approves it.
import { z } from 'zod';
import type { BookmarkTarget } from '../../store/bookmarks.ts';
import { requireBookmarker } from '../bookmarks/service.ts';
import { mayRead } from '../moderation-reads.ts';
import { findTopic } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { recordId, topicRef } from '../fields.ts';
import { personalWrite } from './personal-write.ts';

const noPost = (id: string) =>
  new DomainError('not_found', `No post "${id}" here. Use a post id from get_topic.`);

export const bookmarkSet = personalWrite({
  name: 'bookmark.set',
  contract: z.object({
    topic: topicRef.optional(),
    post: recordId.optional(),
    bookmarked: z.boolean(),
  }),
  guard: (ctx) => void requireBookmarker(ctx.actor, ctx.community),
  /** The topic (and post) named, when the person may read it now. */
  load: async ({ store, community }, person, input) => {
    if (Boolean(input.topic) === Boolean(input.post))
      throw new DomainError('invalid_argument', 'Name either a "topic" or a "post" (one).');
    const scope = store.community(community.id);
    const post = input.post ? await scope.posts.getById(input.post) : undefined;
    if (input.post && !post) throw noPost(input.post);
    const topic = post
      ? (await scope.topics.getById(post.topicId))!
      : await findTopic(scope, input.topic!);
    if (!(await mayRead(store, person, community, topic, post)))
      throw post
        ? noPost(post.id)
        : new DomainError(
            'not_found',
            `No topic "${input.topic}" in this community. Use a topic id or slug from list_topics or search.`,
          );
    return { topic, post };
  },
  apply: async (step, person, input, { topic, post }) => {
    const target: BookmarkTarget = post
      ? { kind: 'post', id: post.id }
      : { kind: 'topic', id: topic.id };
    const bookmarks = step.tx.community(step.community.id).bookmarks;
    const changed = input.bookmarked
      ? (await bookmarks.add(person.personId, target)).created
      : await bookmarks.remove(person.personId, target);
    return {
      kind: target.kind,
      id: target.id,
      topic_id: topic.id,
      bookmarked: input.bookmarked,
      changed,
    };
  },
  targets: (out) => ({
    topic_id: out.topic_id,
    post_id: out.kind === 'post' ? out.id : undefined,
  }),
});
