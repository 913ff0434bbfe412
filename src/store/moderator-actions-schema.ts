// Kysely table types of migration 0088_moderator_actions's log (see ./schema.ts for the conventions; the
// columns it adds to topics and posts are in ./schema.ts beside theirs).
type Timestamp = string | Date;

export interface ModerationLogTable {
  id: string;
  community_id: string;
  action: string;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string;
  topic_id: string | null;
  post_id: string | null;
  target_title: string;
  detail: string;
  reason: string;
  created_at: Timestamp;
}

export interface ModerationDatabase {
  moderation_log: ModerationLogTable;
}
