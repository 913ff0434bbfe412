// Hamlet's operation catalogue: every product operation, once. The MCP servers list their tools
// from it (the operations marked `mcp`), and the REST API, OpenAPI and web forms are built from the
// same definitions.
import { ACCOUNT_OPERATIONS } from './account.ts';
import { ADMIN_OPERATIONS } from './admin.ts';
import { APPROVAL_OPERATIONS } from './approvals.ts';
import { ARTICLE_OPERATIONS } from './articles.ts';
import { CATEGORY_OPERATIONS } from './categories.ts';
import { COMMUNITY_OPERATIONS } from './community.ts';
import { NETWORK_OPERATIONS } from './network.ts';
import { OAUTH_OPERATIONS } from './oauth.ts';
import type { AnyOperation } from './operation.ts';
import { WEBHOOK_OPERATIONS } from './webhooks.ts';
import { NOTIFICATION_OPERATIONS } from './notifications.ts';
import { ACCOUNT_MAIL_OPERATIONS } from './account-mail.ts';
import { MAIL_ADMIN_OPERATIONS } from './mail-admin.ts';
import { FEEDBACK_OPERATIONS } from './feedback.ts';
import { MODERATION_OPERATIONS } from './moderation.ts';
import { DRAFT_OPERATIONS } from './drafts.ts';
import { BOOKMARK_OPERATIONS } from './bookmarks.ts';
import { UPLOAD_OPERATIONS } from './uploads.ts';
import { MODERATOR_ACTION_OPERATIONS } from './moderator-actions.ts';
import { PEOPLE_COMMUNITY_OPERATIONS, PEOPLE_NETWORK_OPERATIONS } from './people.ts';
import { WEB_COMMUNITY_OPERATIONS, WEB_NETWORK_OPERATIONS } from './web-communities.ts';
import { SITEMAP_COMMUNITY_OPERATIONS, SITEMAP_NETWORK_OPERATIONS } from './sitemaps.ts';

/** Every operation a community host serves (its nine MCP tools first). */
export const COMMUNITY_CATALOGUE: readonly AnyOperation[] = [
  ...COMMUNITY_OPERATIONS,
  ...ARTICLE_OPERATIONS,
  ...APPROVAL_OPERATIONS,
  ...ADMIN_OPERATIONS,
  ...CATEGORY_OPERATIONS,
  ...PEOPLE_COMMUNITY_OPERATIONS,
  ...WEB_COMMUNITY_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...NOTIFICATION_OPERATIONS,
  ...OAUTH_OPERATIONS,
  ...MAIL_ADMIN_OPERATIONS,
  ...FEEDBACK_OPERATIONS,
  ...MODERATION_OPERATIONS,
  ...DRAFT_OPERATIONS,
  ...BOOKMARK_OPERATIONS,
  ...UPLOAD_OPERATIONS,
  ...MODERATOR_ACTION_OPERATIONS,
  ...SITEMAP_COMMUNITY_OPERATIONS,
];

/**
 * The community server's MCP tools: its nine first, then the tools of the toolsets a community
 * may turn on (listedAsTool decides per community).
 */
export const COMMUNITY_TOOLS: readonly AnyOperation[] = COMMUNITY_CATALOGUE.filter((op) => op.mcp);

/** Every operation the network apex serves (its six MCP tools first). */
export const NETWORK_CATALOGUE: readonly AnyOperation[] = [
  ...NETWORK_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...PEOPLE_NETWORK_OPERATIONS,
  ...WEB_NETWORK_OPERATIONS,
  ...ACCOUNT_MAIL_OPERATIONS,
  ...SITEMAP_NETWORK_OPERATIONS,
];

export const CATALOGUE: readonly AnyOperation[] = [...COMMUNITY_CATALOGUE, ...NETWORK_CATALOGUE];

/** An operation by its server and name. */
export function operationNamed(
  server: 'community' | 'network',
  name: string,
): AnyOperation | undefined {
  return (server === 'community' ? COMMUNITY_CATALOGUE : NETWORK_CATALOGUE).find(
    (op) => op.name === name,
  );
}

export { COMMUNITY_OPERATIONS, NETWORK_OPERATIONS, WEBHOOK_OPERATIONS };
