// The versions of edited posts in one community (migration 0103_post_revisions), numbered per post
// from 1 (the body the first edit replaced). Articles keep theirs apart (article_revisions).
import type { AuthorRef } from './types.ts';

type Timestamp = string | Date;

export type PostRevision = {
  id: string;
  postId: string;
  revision: number;
  /** The topic's title with this version of the question; null for a reply. */
  title: string | null;
  body: string;
  /** Who wrote this version: the post's author for version 1, then whoever edited it. */
  author: AuthorRef;
  createdAt: string;
};

export type NewPostRevision = {
  title: string | null;
  body: string;
  author: AuthorRef;
  createdAt?: string;
};

export interface PostRevisionRepository {
  /** Appends the next version of the post (call inside the edit's transaction). */
  add(postId: string, input: NewPostRevision): Promise<PostRevision>;
  /** The post's versions, oldest first (none for a post never edited since 0103). */
  list(postId: string): Promise<PostRevision[]>;
}

/** Kysely table types of 0103_post_revisions (see ./schema.ts for the conventions). */
export interface PostRevisionDatabase {
  post_revisions: {
    id: string;
    community_id: string;
    post_id: string;
    revision: number;
    title: string | null;
    body: string;
    author_kind: string;
    author_id: string | null;
    author_name: string;
    author_via: string | null;
    created_at: Timestamp;
  };
}
