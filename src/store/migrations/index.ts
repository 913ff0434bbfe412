// The one ordered list of migrations, shared by both dialects. Names sort in application order;
// never rename or edit an applied migration: add a new one.
import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../repositories.ts';
import { contentMigration } from './0001_content.ts';
import { identityMigration } from './0002_identity.ts';
import { searchMigration } from './0005_search.ts';
import { mcpSessionsMigration } from './0008_mcp_sessions.ts';
import { searchSpeedMigration } from './0009_search_speed.ts';
import { communityMcpMigration } from './0010_community_mcp.ts';
import { searchGenerationMigration } from './0011_search_generation.ts';
import { searchEmbeddingsMigration } from './0020_search_embeddings.ts';
import { searchProfilesMigration } from './0021_search_profiles.ts';
import { searchLexiconMigration } from './0022_search_lexicon.ts';
import { searchFilterFactsMigration } from './0023_search_filter_facts.ts';
import { rateLimitsMigration } from './0040_rate_limits.ts';
import { postsByAuthorMigration } from './0050_posts_by_author.ts';
import { topicListingsMigration } from './0051_topic_listings.ts';
import { webhooksMigration } from './0030_webhooks.ts';
import { oauthMigration } from './0060_oauth.ts';
import { authorViaMigration } from './0061_author_via.ts';
import { mcpSessionsBoundedMigration } from './0070_mcp_sessions_bounded.ts';
import { webhookRetentionMigration } from './0071_webhook_retention.ts';
import { searchProfileGenerationsMigration } from './0072_search_profile_generations.ts';
import { handoffTicketHostMigration } from './0073_handoff_ticket_host.ts';
import { renderedHtmlMigration } from './0074_rendered_html.ts';
import { readinessHeartbeatMigration } from './0075_readiness_heartbeat.ts';
import { retentionIndexesMigration } from './0076_retention_indexes.ts';
import { categoryApprovalMigration } from './0077_category_approval.ts';
import { notificationsMigration } from './0078_notifications.ts';
import { mailMigration } from './0079_mail.ts';
import { mailBouncesMigration } from './0082_mail_bounces.ts';
import { votesMigration } from './0085_votes.ts';
import { moderationMigration } from './0091_moderation.ts';
import { draftsMigration } from './0095_drafts.ts';
import { uploadsMigration } from './0098_uploads.ts';
import { moderatorActionsMigration } from './0088_moderator_actions.ts';
import { moderationSearchMigration } from './0089_moderation_search.ts';
import { bookmarksMigration } from './0102_bookmarks.ts';
import { postRevisionsMigration } from './0103_post_revisions.ts';
import { topicIndexesMigration } from './0104_topic_indexes.ts';
import { categoryTopicCountsMigration } from './0105_category_topic_counts.ts';
import { searchScopeMigration } from './0110_search_scope.ts';
import { communityTextMigration } from './0111_community_text.ts';
import { listingOrdinalsMigration } from './0112_listing_ordinals.ts';
import { memberProfilesMigration } from './0113_member_profiles.ts';
import { maintenanceMigration } from './0114_maintenance.ts';
import { agentKnowledgeMigration } from './0115_agent_knowledge.ts';
import { topicReadsMigration } from './0116_topic_reads.ts';
import { authorReputationMigration } from './0117_author_reputation.ts';

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
  };
}

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}
