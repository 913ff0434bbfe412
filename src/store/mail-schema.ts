// Kysely table types of migrations 0079_mail and 0082_mail_bounces (see ./schema.ts for the conventions).
type Timestamp = string | Date;
type Millis = number | string;

export interface MailOutboxTable {
  id: string;
  message_id: string;
  community_id: string | null;
  person_id: string | null;
  to_address: string;
  kind: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  headers: string;
  status: string;
  attempts: number;
  next_attempt_at: Millis;
  lease_until: Millis | null;
  lease_token: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  sent_at: Timestamp | null;
}

export interface AccountTokensTable {
  id: string;
  person_id: string;
  purpose: string;
  token_hash: string;
  email: string;
  expires_at: Millis;
  used_at: Millis | null;
  created_at: Timestamp;
}

export interface EmailVerificationsTable {
  person_id: string;
  email: string;
  verified_at: Timestamp;
}

export interface MailUnsubscribesTable {
  person_id: string;
  kind: string;
  created_at: Timestamp;
}

export interface CommunityAccountRulesTable {
  community_id: string;
  unverified_may_post: number;
  updated_at: Timestamp;
}

export interface MailBouncesTable {
  address: string;
  hard_bounces: number;
  last_reason: string | null;
  last_at: Timestamp;
  disabled_at: Timestamp | null;
}

export interface MailDatabase {
  mail_bounces: MailBouncesTable;
  topics: { id: string; community_id: string };
  mail_outbox: MailOutboxTable;
  account_tokens: AccountTokensTable;
  email_verifications: EmailVerificationsTable;
  mail_unsubscribes: MailUnsubscribesTable;
  community_account_rules: CommunityAccountRulesTable;
}
