// The bookmarks repository of one community (migration 0102_bookmarks): what a person keeps to come
// back to, a whole topic or one post. A person's bookmarks are theirs alone: every method takes the
// person's id, and nothing lists another's.
import type { Keyset, Page } from './types.ts';

type Timestamp = string | Date;

/** What is bookmarked: a topic, or one post (of whatever topic holds it now). */
export type BookmarkTarget = { kind: 'topic'; id: string } | { kind: 'post'; id: string };

export type Bookmark = {
  id: string;
  personId: string;
  target: BookmarkTarget;
  createdAt: string;
};

export interface BookmarkRepository {
  /** Bookmarks it (once: a second call keeps the first row); whether it is new. */
  add(personId: string, target: BookmarkTarget): Promise<{ bookmark: Bookmark; created: boolean }>;
  /** Removes the bookmark; whether there was one. */
  remove(personId: string, target: BookmarkTarget): Promise<boolean>;
  /** The person's bookmarks of these topic or post ids (at most one each), newest first. */
  among(personId: string, ids: string[]): Promise<Bookmark[]>;
  /** The person's bookmarks, newest first, after the keyset of the previous page. */
  list(personId: string, page: { after?: Keyset; limit: number }): Promise<Page<Bookmark, Keyset>>;
}

/** Kysely table types of 0102_bookmarks (see ./schema.ts for the conventions). */
export interface BookmarkDatabase {
  bookmarks: {
    id: string;
    community_id: string;
    person_id: string;
    topic_id: string | null;
    post_id: string | null;
    target_id: string;
    created_at: Timestamp;
  };
}
