// Kysely table types of migration 0078_notifications (see ./schema.ts for the conventions).
type Timestamp = string | Date;

export interface NotificationsTable {
  id: string;
  community_id: string;
  recipient_id: string;
  kind: string;
  source_key: string;
  topic_id: string | null;
  post_id: string | null;
  approval_id: string | null;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string;
  title: string;
  reason: string | null;
  created_at: Timestamp;
  read_at: Timestamp | null;
  email_state: string;
  emailed_at: Timestamp | null;
}

export interface NotificationLevelsTable {
  community_id: string;
  person_id: string;
  target_kind: string;
  target_id: string;
  level: string;
  updated_at: Timestamp;
}

export interface NotificationPreferencesTable {
  community_id: string;
  person_id: string;
  email: string;
  updated_at: Timestamp;
}

export interface NotificationDatabase {
  notifications: NotificationsTable;
  notification_levels: NotificationLevelsTable;
  notification_preferences: NotificationPreferencesTable;
  people: { id: string; handle: string | null };
  memberships: { community_id: string; person_id: string };
  topics: { id: string; community_id: string; slug: string };
}
