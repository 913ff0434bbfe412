// Kysely table types of migration 0091_moderation (see ./schema.ts for the conventions).
type Timestamp = string | Date;

export interface PostFlagsTable {
  id: string;
  community_id: string;
  post_id: string;
  topic_id: string;
  flagger_kind: string;
  flagger_id: string;
  flagger_name: string;
  reason: string;
  note: string | null;
  trusted: number;
  status: string;
  created_at: Timestamp;
  decided_at: Timestamp | null;
  decided_by_name: string | null;
}

export interface HiddenPostsTable {
  community_id: string;
  post_id: string;
  topic_id: string;
  position: number;
  cause: string;
  note: string | null;
  by_name: string;
  hidden_at: Timestamp;
}

export interface SanctionsTable {
  community_id: string;
  subject_kind: string;
  subject_id: string;
  subject_name: string;
  mode: string;
  reason: string;
  ends_at: Timestamp;
  by_name: string;
  created_at: Timestamp;
}

export interface ModerationSettingsTable {
  community_id: string;
  settings: string;
  updated_at: Timestamp;
}

export interface QueuedReasonsTable {
  community_id: string;
  approval_id: string;
  reason: string;
}

export interface ModerationDatabase {
  queued_reasons: QueuedReasonsTable;
  post_flags: PostFlagsTable;
  hidden_posts: HiddenPostsTable;
  sanctions: SanctionsTable;
  moderation_settings: ModerationSettingsTable;
  posts: {
    id: string;
    community_id: string;
    author_kind: string;
    author_id: string | null;
    created_at: Timestamp;
  };
  topics: { id: string; community_id: string; solution_post_id: string | null };
}
