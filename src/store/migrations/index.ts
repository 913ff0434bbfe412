// The one ordered list of migrations, shared by both dialects. Names sort in application order;
// never rename or edit an applied migration: add a new one.
import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { Logger } from '../../log.ts';
import { needsMaintenanceMode, type TrafficFlag } from './traffic.ts';
import { contentMigration, traffic as t0001 } from './0001_content.ts';
import { identityMigration, traffic as t0002 } from './0002_identity.ts';
import { searchMigration, traffic as t0005 } from './0005_search.ts';
import { mcpSessionsMigration, traffic as t0008 } from './0008_mcp_sessions.ts';
import { searchSpeedMigration, traffic as t0009 } from './0009_search_speed.ts';
import { communityMcpMigration, traffic as t0010 } from './0010_community_mcp.ts';
import { searchGenerationMigration, traffic as t0011 } from './0011_search_generation.ts';
import { searchEmbeddingsMigration, traffic as t0020 } from './0020_search_embeddings.ts';
import { searchProfilesMigration, traffic as t0021 } from './0021_search_profiles.ts';
import { searchLexiconMigration, traffic as t0022 } from './0022_search_lexicon.ts';
import { searchFilterFactsMigration, traffic as t0023 } from './0023_search_filter_facts.ts';
import { rateLimitsMigration, traffic as t0040 } from './0040_rate_limits.ts';
import { postsByAuthorMigration, traffic as t0050 } from './0050_posts_by_author.ts';
import { topicListingsMigration, traffic as t0051 } from './0051_topic_listings.ts';
import { webhooksMigration, traffic as t0030 } from './0030_webhooks.ts';
import { oauthMigration, traffic as t0060 } from './0060_oauth.ts';
import { authorViaMigration, traffic as t0061 } from './0061_author_via.ts';
import { mcpSessionsBoundedMigration, traffic as t0070 } from './0070_mcp_sessions_bounded.ts';
import { webhookRetentionMigration, traffic as t0071 } from './0071_webhook_retention.ts';
import {
  searchProfileGenerationsMigration,
  traffic as t0072,
} from './0072_search_profile_generations.ts';
import { handoffTicketHostMigration, traffic as t0073 } from './0073_handoff_ticket_host.ts';
import { renderedHtmlMigration, traffic as t0074 } from './0074_rendered_html.ts';
import { readinessHeartbeatMigration, traffic as t0075 } from './0075_readiness_heartbeat.ts';
import { retentionIndexesMigration, traffic as t0076 } from './0076_retention_indexes.ts';
import { categoryApprovalMigration, traffic as t0077 } from './0077_category_approval.ts';
import { notificationsMigration, traffic as t0078 } from './0078_notifications.ts';
import { mailMigration, traffic as t0079 } from './0079_mail.ts';
import { mailBouncesMigration, traffic as t0082 } from './0082_mail_bounces.ts';
import { votesMigration, traffic as t0085 } from './0085_votes.ts';
import { moderationMigration, traffic as t0091 } from './0091_moderation.ts';
import { draftsMigration, traffic as t0095 } from './0095_drafts.ts';
import { uploadsMigration, traffic as t0098 } from './0098_uploads.ts';
import { moderatorActionsMigration, traffic as t0088 } from './0088_moderator_actions.ts';
import { moderationSearchMigration, traffic as t0089 } from './0089_moderation_search.ts';
import { bookmarksMigration, traffic as t0102 } from './0102_bookmarks.ts';
import { postRevisionsMigration, traffic as t0103 } from './0103_post_revisions.ts';
import { topicIndexesMigration, traffic as t0104 } from './0104_topic_indexes.ts';
import { categoryTopicCountsMigration, traffic as t0105 } from './0105_category_topic_counts.ts';
import { searchScopeMigration, traffic as t0110 } from './0110_search_scope.ts';
import { communityTextMigration, traffic as t0111 } from './0111_community_text.ts';
import { listingOrdinalsMigration, traffic as t0112 } from './0112_listing_ordinals.ts';
import { memberProfilesMigration, traffic as t0113 } from './0113_member_profiles.ts';
import { maintenanceMigration, traffic as t0114 } from './0114_maintenance.ts';
import { agentKnowledgeMigration, traffic as t0115 } from './0115_agent_knowledge.ts';
import { topicReadsMigration, traffic as t0116 } from './0116_topic_reads.ts';
import { authorReputationMigration, traffic as t0117 } from './0117_author_reputation.ts';
import {
  searchDocumentsCommunityMigration,
  traffic as t0118,
} from './0118_search_documents_community.ts';

export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_content': contentMigration(dialect),
    '0002_identity': identityMigration(dialect),
    '0005_search': searchMigration(dialect),
    '0008_mcp_sessions': mcpSessionsMigration(dialect),
    '0009_search_speed': searchSpeedMigration(dialect),
    '0010_community_mcp': communityMcpMigration(dialect),
    '0011_search_generation': searchGenerationMigration(dialect),
    '0020_search_embeddings': searchEmbeddingsMigration(dialect),
    '0021_search_profiles': searchProfilesMigration(dialect),
    '0022_search_lexicon': searchLexiconMigration(dialect),
    '0023_search_filter_facts': searchFilterFactsMigration(dialect),
    '0040_rate_limits': rateLimitsMigration(dialect),
    '0050_posts_by_author': postsByAuthorMigration(dialect),
    '0051_topic_listings': topicListingsMigration(dialect),
    '0030_webhooks': webhooksMigration(dialect),
    '0060_oauth': oauthMigration(dialect),
    '0061_author_via': authorViaMigration(dialect),
    '0070_mcp_sessions_bounded': mcpSessionsBoundedMigration(dialect),
    '0071_webhook_retention': webhookRetentionMigration(dialect),
    '0072_search_profile_generations': searchProfileGenerationsMigration(dialect),
    '0073_handoff_ticket_host': handoffTicketHostMigration(dialect),
    '0074_rendered_html': renderedHtmlMigration(dialect),
    '0075_readiness_heartbeat': readinessHeartbeatMigration(dialect),
    '0076_retention_indexes': retentionIndexesMigration(dialect),
    '0077_category_approval': categoryApprovalMigration(dialect),
    '0078_notifications': notificationsMigration(dialect),
    '0079_mail': mailMigration(dialect),
    '0082_mail_bounces': mailBouncesMigration(dialect),
    '0085_votes': votesMigration(dialect),
    '0091_moderation': moderationMigration(dialect),
    '0095_drafts': draftsMigration(dialect),
    '0088_moderator_actions': moderatorActionsMigration(dialect),
    '0089_moderation_search': moderationSearchMigration(dialect),
    '0102_bookmarks': bookmarksMigration(dialect),
    '0103_post_revisions': postRevisionsMigration(dialect),
    '0104_topic_indexes': topicIndexesMigration,
    '0105_category_topic_counts': categoryTopicCountsMigration(dialect),
    '0110_search_scope': searchScopeMigration(dialect),
    '0098_uploads': uploadsMigration(dialect),
    '0111_community_text': communityTextMigration(dialect),
    '0112_listing_ordinals': listingOrdinalsMigration(dialect),
    '0113_member_profiles': memberProfilesMigration(dialect),
    '0114_maintenance': maintenanceMigration(dialect),
    '0115_agent_knowledge': agentKnowledgeMigration(dialect),
    '0116_topic_reads': topicReadsMigration(dialect),
    '0117_author_reputation': authorReputationMigration(dialect),
    '0118_search_documents_community': searchDocumentsCommunityMigration(dialect),
  };
}

/** Each migration's traffic flag, by name (declared in its own file). */
export const migrationTraffic: Readonly<Record<string, TrafficFlag>> = {
  '0001_content': t0001,
  '0002_identity': t0002,
  '0005_search': t0005,
  '0008_mcp_sessions': t0008,
  '0009_search_speed': t0009,
  '0010_community_mcp': t0010,
  '0011_search_generation': t0011,
  '0020_search_embeddings': t0020,
  '0021_search_profiles': t0021,
  '0022_search_lexicon': t0022,
  '0023_search_filter_facts': t0023,
  '0030_webhooks': t0030,
  '0040_rate_limits': t0040,
  '0050_posts_by_author': t0050,
  '0051_topic_listings': t0051,
  '0060_oauth': t0060,
  '0061_author_via': t0061,
  '0070_mcp_sessions_bounded': t0070,
  '0071_webhook_retention': t0071,
  '0072_search_profile_generations': t0072,
  '0073_handoff_ticket_host': t0073,
  '0074_rendered_html': t0074,
  '0075_readiness_heartbeat': t0075,
  '0076_retention_indexes': t0076,
  '0077_category_approval': t0077,
  '0078_notifications': t0078,
  '0079_mail': t0079,
  '0082_mail_bounces': t0082,
  '0085_votes': t0085,
  '0088_moderator_actions': t0088,
  '0089_moderation_search': t0089,
  '0091_moderation': t0091,
  '0095_drafts': t0095,
  '0098_uploads': t0098,
  '0102_bookmarks': t0102,
  '0103_post_revisions': t0103,
  '0104_topic_indexes': t0104,
  '0105_category_topic_counts': t0105,
  '0110_search_scope': t0110,
  '0111_community_text': t0111,
  '0112_listing_ordinals': t0112,
  '0113_member_profiles': t0113,
  '0114_maintenance': t0114,
  '0115_agent_knowledge': t0115,
  '0116_topic_reads': t0116,
  '0117_author_reputation': t0117,
  '0118_search_documents_community': t0118,
};

/**
 * The migrations among `names` (up to `target` when given) that need maintenance mode; a name this
 * version does not know counts as needing it.
 */
export function needingMaintenance(names: readonly string[], target?: string): string[] {
  return names.filter((name) => {
    const flag = migrationTraffic[name];
    return (target === undefined || name <= target) && (!flag || needsMaintenanceMode(flag));
  });
}

/**
 * The start's log line of what `serve` migrated: the migrations applied, and those among them that
 * a multi-instance upgrade runs under maintenance mode (`hamlet migrate`).
 */
export function logMigrations(logger: Logger, sqlite: boolean): (applied: string[]) => void {
  return (applied) =>
    logger.info(
      { migrations: applied, needs_maintenance_mode: needingMaintenance(applied), sqlite },
      applied.length ? `migrations applied: ${applied.length}` : 'database schema is current',
    );
}

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}
