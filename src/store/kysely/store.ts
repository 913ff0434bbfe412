// The Store over Kysely, shared by both engines; ../open.ts builds the Kysely instance per dialect.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { CommunityScope, Dialect, Store } from '../repositories.ts';
import { migrateTo, migrateUp, schemaState } from './migrations-runner.ts';
import type { SchemaState } from '../schema-version.ts';
import { KyselyCommunities } from './communities.ts';
import { KyselyPeople } from './people.ts';
import { KyselyCategories } from './categories.ts';
import { KyselyTopics } from './topics.ts';
import { KyselyPosts } from './posts.ts';
import { KyselyArticleRevisions } from './articles.ts';
import { KyselyAgents } from './agents.ts';
import { KyselyImports } from './imports.ts';
import { isUuid } from '../ids.ts';
import { KyselySessionStore } from './mcp-sessions.ts';
import { KyselyCommunityMcpConfig } from './community-mcp.ts';
import type { IdentityRepositories } from '../identity.ts';
import { KyselyCredentials } from './credentials.ts';
import { KyselyAudit } from './audit.ts';
import { narrow } from './identity-rows.ts';
import { KyselyMembers } from './members.ts';
import { KyselyAgentAccess } from './agent-access.ts';
import { KyselyPolicies } from './policies.ts';
import { KyselyApprovals } from './approvals.ts';
import { KyselyIdempotency } from './idempotency.ts';
import { KyselyWebhooks } from './webhooks.ts';
import { KyselyWebhookQueue } from './webhook-queue.ts';
import { webhookDb } from './webhook-rows.ts';
import { KyselyOAuth } from './oauth.ts';
import { probeWrite } from './write-probe.ts';
import { KyselyMaintenance } from './maintenance.ts';
import { KyselyModeratorActions } from './moderator-actions.ts';
import { KyselyNotificationMail, KyselyNotifications, notificationDb } from './notifications.ts';
import { draftDb, KyselyDrafts } from './drafts.ts';
import { KyselyMemberProfiles, memberProfileDb } from './member-profiles.ts';
import { bookmarkDb, KyselyBookmarks } from './bookmarks.ts';
import { KyselyTopicReads, KyselyTopicViews, topicReadDb } from './topic-reads.ts';
import { KyselyPostRevisions, postRevisionDb } from './post-revisions.ts';
import { KyselyUploads, uploadDb } from './uploads.ts';
import { KyselyRetention } from './retention.ts';
import { KyselyMailOutbox, mailDb } from './mail-outbox.ts';
import { KyselyAccountTokens } from './account-tokens.ts';
import { KyselyVotes, votesDb } from './votes.ts';
import { KyselyKnowledge, knowledgeDb } from './knowledge.ts';
import { KyselyReputation, reputationDb } from './reputation.ts';
import { KyselyModeration, moderationDb } from './moderation.ts';
import { KyselyPublicThreads } from './public-threads.ts';

export class KyselyStore implements Store {
  readonly communities: KyselyCommunities;
  readonly publicThreads: KyselyPublicThreads;
  readonly people: KyselyPeople;
  readonly identity: IdentityRepositories;
  readonly mcpSessions: KyselySessionStore;
  readonly mcpConfig: KyselyCommunityMcpConfig;
  readonly webhookQueue: KyselyWebhookQueue;
  readonly oauth: KyselyOAuth;
  readonly notificationMail: KyselyNotificationMail;
  readonly topicViews: KyselyTopicViews;
  readonly retention: KyselyRetention;
  readonly maintenance: KyselyMaintenance;
  readonly mail: KyselyMailOutbox;
  readonly accountTokens: KyselyAccountTokens;

  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect,
    /** Set on the store handed to a transaction callback: nested transaction() calls join it. */
    private readonly inTransaction = false,
  ) {
    this.communities = new KyselyCommunities(db, dialect);
    this.publicThreads = new KyselyPublicThreads(db);
    this.people = new KyselyPeople(db);
    this.mcpSessions = new KyselySessionStore(db);
    this.mcpConfig = new KyselyCommunityMcpConfig(db);
    this.oauth = new KyselyOAuth(db);
    this.notificationMail = new KyselyNotificationMail(notificationDb(db));
    this.topicViews = new KyselyTopicViews(topicReadDb(db));
    this.retention = new KyselyRetention(db);
    this.maintenance = new KyselyMaintenance(db);
    this.identity = { credentials: new KyselyCredentials(db), audit: new KyselyAudit(db) };
    this.webhookQueue = new KyselyWebhookQueue(webhookDb(db), dialect);
    this.mail = new KyselyMailOutbox(mailDb(db), dialect);
    this.accountTokens = new KyselyAccountTokens(db);
  }

  community(communityId: string): CommunityScope {
    // A malformed id cannot match any row; the repositories still add `community_id = ?` to every
    // query, and PostgreSQL would reject a malformed uuid, so map it to the nil uuid up front.
    const id = isUuid(communityId) ? communityId : '00000000-0000-0000-0000-000000000000';
    return {
      communityId: id,
      categories: new KyselyCategories(this.db, id),
      topics: new KyselyTopics(this.db, id, this.dialect),
      posts: new KyselyPosts(this.db, id),
      articles: new KyselyArticleRevisions(this.db, id),
      postRevisions: new KyselyPostRevisions(postRevisionDb(this.db), id),
      agents: new KyselyAgents(this.db, id),
      imports: new KyselyImports(this.db, id),
      access: {
        members: new KyselyMembers(narrow(this.db), id, this.dialect),
        agents: new KyselyAgentAccess(narrow(this.db), id),
        policies: new KyselyPolicies(narrow(this.db), id),
        approvals: new KyselyApprovals(narrow(this.db), id),
        idempotency: new KyselyIdempotency(narrow(this.db), id),
      },
      webhooks: new KyselyWebhooks(webhookDb(this.db), id),
      notifications: new KyselyNotifications(notificationDb(this.db), id),
      votes: new KyselyVotes(votesDb(this.db), id),
      knowledge: new KyselyKnowledge(knowledgeDb(this.db), id),
      reputation: new KyselyReputation(reputationDb(this.db), id),
      moderation: new KyselyModeration(moderationDb(this.db), id),
      drafts: new KyselyDrafts(draftDb(this.db), id),
      bookmarks: new KyselyBookmarks(bookmarkDb(this.db), id),
      memberProfiles: new KyselyMemberProfiles(memberProfileDb(this.db), id),
      topicReads: new KyselyTopicReads(topicReadDb(this.db), id),
      uploads: new KyselyUploads(uploadDb(this.db), id, this.dialect),
      moderatorActions: new KyselyModeratorActions(this.db, id, this.dialect),
    };
  }

  async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    if (this.dialect === 'postgres') {
      return this.db.transaction().execute((trx) => fn(new KyselyStore(trx, this.dialect, true)));
    }
    // SQLite: BEGIN IMMEDIATE takes the write lock up front, so two processes (server + importer)
    // wait for it before the transaction starts (asynchronously, ../sqlite-lock.ts) instead of
    // failing with SQLITE_BUSY when a reader upgrades to a writer.
    return this.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await fn(new KyselyStore(conn, this.dialect, true));
        await sql`commit`.execute(conn);
        return result;
      } catch (err) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw err;
      }
    });
  }

  async migrate(): Promise<string[]> {
    return migrateUp(this.db, this.dialect);
  }

  async schemaState(): Promise<SchemaState> {
    return schemaState(this.db, this.dialect);
  }

  async migrateTo(target: string): Promise<{ applied: string[]; reverted: string[] }> {
    return migrateTo(this.db, this.dialect, target);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async probeWrite(): Promise<void> {
    await probeWrite(this.db, this.dialect);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
