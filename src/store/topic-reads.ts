// The reading records of a community (migration 0116_topic_reads): how far each signed-in person
// read each topic, their visits (for "new since your last visit"), and what topic lists show of a
// topic's activity (its last post's author and position, its view count). Every read here takes a
// page of topic ids and answers in one statement: a list page asks once, never per topic.
import type { AuthorRef } from './types.ts';

type Timestamp = string | Date;

/** How far one person read one topic. */
export type TopicRead = { lastPosition: number; readAt: string };

/** A topic's activity as lists show it: its last post (not deleted) and its views. */
export type TopicActivity = {
  lastPosition: number;
  lastAuthor: AuthorRef;
  lastPostedAt: string;
  views: number;
};

export interface TopicReadRepository {
  /**
   * The person was shown the topic up to the post at `position`: one upsert, and the position
   * never moves back (an older page opened later keeps what was read further on).
   */
  opened(personId: string, topicId: string, position: number, at?: string): Promise<void>;
  /** The person's reads of these topics (a topic never opened is absent). */
  among(personId: string, topicIds: string[]): Promise<Map<string, TopicRead>>;
  /** The activity of these topics (a topic with no shown post is absent). */
  activity(topicIds: string[]): Promise<Map<string, TopicActivity>>;
  /**
   * The person comes to the community at `at`: a visit begins when the last one was seen more than
   * `gapMs` before (then the previous visit's start is kept, and one row written). Answers the
   * start of the visit before this one (null: their first). Reads only, within a visit.
   */
  visit(personId: string, at: string, gapMs: number): Promise<{ previousSeenAt: string | null }>;
}

/** Views counted in memory by each instance and added in batches, over every community. */
export interface TopicViewCounts {
  add(counts: { communityId: string; topicId: string; views: number }[]): Promise<void>;
}

/** Kysely table types of 0116_topic_reads (see ./schema.ts for the conventions). */
export interface TopicReadDatabase {
  topic_reads: {
    community_id: string;
    person_id: string;
    topic_id: string;
    last_position: number;
    read_at: Timestamp;
  };
  community_visits: {
    community_id: string;
    person_id: string;
    last_seen_at: Timestamp;
    previous_seen_at: Timestamp | null;
  };
  topic_views: { community_id: string; topic_id: string; views: number | string };
  posts: {
    community_id: string;
    topic_id: string;
    position: number;
    author_kind: string;
    author_id: string | null;
    author_name: string;
    author_via: string | null;
    created_at: Timestamp;
    deleted_at: Timestamp | null;
  };
  topics: { id: string; community_id: string };
}
