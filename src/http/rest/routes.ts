// The REST API's route table: which catalogue operation each `/api/v1` route runs, with its method,
// path and success status. Path parameters are input fields of the same name; a GET's query
// parameters are input fields too (`rename` maps a short public name such as `q` onto a field,
// `nest` lifts the fields of an object input such as search `filters` to the query string); other
// methods take a JSON body. Everything else (schemas, credential, scope, handler) is the operation's.
import {
  getNotificationPreferences,
  listNotifications,
  suggestHandles,
  markNotificationsRead,
  setMyHandle,
  setNotificationPreferences,
  setWatchLevel,
} from '../../operations/notifications.ts';
import { listMyKeys, mintMyKey, revokeMyKey } from '../../operations/account.ts';
import { listBookmarks, setBookmark } from '../../operations/bookmarks.ts';
import { listPostRevisions } from '../../operations/people.ts';
import {
  clearDispute,
  confirmAnswer,
  getVoteSettings,
  setVoteSettings,
  votePost,
} from '../../operations/feedback.ts';
import {
  createAgent,
  getMcpConfig,
  listAgentKeys,
  listAgents,
  listMembers,
  mintAgentKey,
  removeMember,
  revokeAgentKey,
  setMcpConfig,
  setMember,
  updateAgent,
} from '../../operations/admin.ts';
import {
  approveWrite,
  getPolicies,
  listApprovals,
  rejectWrite,
  setPolicy,
} from '../../operations/approvals.ts';
import { listArticleRevisions, reviseArticle, unmarkSolution } from '../../operations/articles.ts';
import {
  createTopic,
  getApproval,
  getTopic,
  listCategories,
  listTopics,
  markSolution,
  replyToTopic,
  searchCommunity,
  suggestAnswer,
} from '../../operations/community.ts';
import {
  askCommunity,
  findCommunity,
  getCommunity,
  getNetworkTopic,
  searchNetwork,
  suggestNetworkAnswer,
} from '../../operations/network.ts';
import type { AnyOperation } from '../../operations/operation.ts';
import { uploadFile } from '../../operations/uploads.ts';
import {
  decideReview,
  flagPost,
  getModerationSettings,
  hidePost,
  liftSanction,
  listSanctions,
  reviewQueue,
  sanctionMember,
  setModerationSettings,
  unhidePost,
} from '../../operations/moderation.ts';
import * as m from '../../operations/moderator-actions.ts';
import { createCategory, deleteCategory, updateCategory } from '../../operations/categories.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhook,
  rotateWebhookSecret,
  updateWebhook,
  getWebhookDelivery,
} from '../../operations/webhooks.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Server = 'community' | 'network';

export type RestRoute = {
  /** The operation's server: the host kind the route answers on. */
  server: Server;
  /** The catalogue operation it runs. */
  op: AnyOperation;
  method: Method;
  /** Below /api/v1, OpenAPI style: `/topics/{topic}`. */
  path: string;
  /** Success status; a write that may be queued answers 202 when it was (status "pending_approval"). */
  status?: 200 | 201;
  /** Query parameter → input field. */
  rename?: Record<string, string>;
  /** Fields of this object input taken from the query string. */
  nest?: string;
  /** Path parameters for fields of another name: path parameter → input field. */
  params?: Record<string, string>;
  /**
   * Anyone may make this read of a public community without a credential, as on the web and the
   * network (charged to the client address; a private community answers 404 as if it did not
   * exist). A public community's content reads are all open so: search, categories, topics,
   * articles and the revisions of posts and articles.
   */
  visitors?: true;
  /** The OpenAPI operationId when the operation has a second route (default: its name). */
  id?: string;
  /**
   * A 201's `Location`: the created resource's path below /api/v1, from the answer and the
   * request's path parameters (undefined: nothing was created, e.g. a write queued for approval).
   */
  created?: (value: unknown, params: Record<string, string>) => string | undefined;
  /**
   * The body is a file (./upload-body.ts): multipart/form-data, or the raw bytes with `?filename=`;
   * bounded by the upload limit instead of the REST body limit.
   */
  upload?: true;
};

export const API_PREFIX = '/api/v1';

const route = (
  op: AnyOperation,
  method: Method,
  path: string,
  extra: Partial<RestRoute> = {},
): RestRoute => ({ server: op.server, op, method, path, ...extra });
const search = { rename: { q: 'query' }, nest: 'filters' };
const enc = encodeURIComponent;
/** What lies at `path` inside an answer (undefined when a step is missing). */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const key of path)
    v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** `prefix/<id>` when the answer has a string id at `path`. */
const at =
  (prefix: (params: Record<string, string>) => string, path: readonly string[]) =>
  (value: unknown, params: Record<string, string>): string | undefined => {
    const id = valueAt(value, path);
    return typeof id === 'string' && id ? `${prefix(params)}/${enc(id)}` : undefined;
  };

const onTopic = (op: AnyOperation, verb: string) => route(op, 'post', `/topics/{topic}/${verb}`);
/** Moderators' actions (src/operations/moderator-actions.ts) and the moderation log. */
const MODERATION_ROUTES: RestRoute[] = [
  onTopic(m.closeTopic, 'close'),
  onTopic(m.reopenTopic, 'reopen'),
  onTopic(m.lockTopic, 'lock'),
  onTopic(m.unlockTopic, 'unlock'),
  onTopic(m.pinTopic, 'pin'),
  onTopic(m.unpinTopic, 'unpin'),
  onTopic(m.deleteTopic, 'delete'),
  onTopic(m.restoreTopic, 'restore'),
  onTopic(m.moveTopic, 'move'),
  onTopic(m.setTopicTags, 'tags'),
  onTopic(m.markDuplicate, 'duplicate'),
  onTopic(m.mergeTopic, 'merge'),
  route(m.deletePost, 'post', '/posts/{post}/delete'),
  route(m.restorePost, 'post', '/posts/{post}/restore'),
  route(m.listModerationLog, 'get', '/moderation-log'),
];

export const REST_ROUTES: RestRoute[] = [
  // A community's host (or /c/<slug>).
  route(searchCommunity, 'get', '/search', { ...search, visitors: true }),
  route(suggestAnswer, 'get', '/suggest', { rename: { q: 'question' } }),
  route(listCategories, 'get', '/categories', { visitors: true }),
  route(createCategory, 'post', '/categories', {
    status: 201,
    created: at(() => '/categories', ['id']),
  }),
  route(updateCategory, 'patch', '/categories/{category}'),
  route(deleteCategory, 'delete', '/categories/{category}'),
  route(listTopics, 'get', '/topics', { visitors: true }),
  route(createTopic, 'post', '/topics', {
    status: 201,
    created: at(() => '/topics', ['topic', 'id']),
  }),
  route(getTopic, 'get', '/topics/{topic}', { visitors: true }),
  route(replyToTopic, 'post', '/topics/{topic}/posts', {
    status: 201,
    // A post has no route of its own: the topic that holds it, at the post.
    created: (v, p) => {
      const post = valueAt(v, ['post', 'id']);
      const topic = valueAt(v, ['topic', 'id']);
      return typeof post === 'string'
        ? `/topics/${enc(typeof topic === 'string' ? topic : p.topic!)}#post-${enc(post)}`
        : undefined;
    },
  }),
  route(markSolution, 'post', '/topics/{topic}/solution'),
  route(unmarkSolution, 'delete', '/topics/{topic}/solution'),
  route(getTopic, 'get', '/articles/{article}', {
    params: { article: 'topic' },
    id: 'get_article',
    visitors: true,
  }),
  route(reviseArticle, 'put', '/articles/{article}'),
  route(listArticleRevisions, 'get', '/articles/{article}/revisions', { visitors: true }),
  route(listApprovals, 'get', '/approvals'),
  route(getApproval, 'get', '/approvals/{id}', { params: { id: 'approval_id' } }),
  route(approveWrite, 'post', '/approvals/{id}/approve', { params: { id: 'approval_id' } }),
  route(rejectWrite, 'post', '/approvals/{id}/reject', { params: { id: 'approval_id' } }),
  route(getPolicies, 'get', '/settings/approval-policies'),
  route(setPolicy, 'put', '/settings/approval-policies/{kind}'),
  route(getMcpConfig, 'get', '/settings/mcp'),
  route(setMcpConfig, 'put', '/settings/mcp'),
  route(listAgents, 'get', '/agents'),
  route(createAgent, 'post', '/agents', {
    status: 201,
    created: at(() => '/agents', ['agent', 'id']),
  }),
  route(updateAgent, 'patch', '/agents/{agent}'),
  route(listAgentKeys, 'get', '/agents/{agent}/keys'),
  route(mintAgentKey, 'post', '/agents/{agent}/keys', {
    status: 201,
    created: at(() => '/keys', ['record', 'id']),
  }),
  route(listAgentKeys, 'get', '/keys', { id: 'list_all_agent_keys' }),
  route(revokeAgentKey, 'delete', '/keys/{key}'),
  route(listMembers, 'get', '/members'),
  route(setMember, 'put', '/members/{email}'),
  route(removeMember, 'delete', '/members/{email}'),
  route(listWebhooks, 'get', '/webhooks'),
  route(createWebhook, 'post', '/webhooks', {
    status: 201,
    created: at(() => '/webhooks', ['endpoint', 'id']),
  }),
  route(getWebhook, 'get', '/webhooks/{webhook}'),
  route(updateWebhook, 'patch', '/webhooks/{webhook}'),
  route(deleteWebhook, 'delete', '/webhooks/{webhook}'),
  route(rotateWebhookSecret, 'post', '/webhooks/{webhook}/rotate-secret'),
  route(listWebhookDeliveries, 'get', '/webhooks/{webhook}/deliveries'),
  route(getWebhookDelivery, 'get', '/webhook-deliveries/{delivery}'),
  route(redeliverWebhook, 'post', '/webhook-deliveries/{delivery}/redeliver'),
  route(listPostRevisions, 'get', '/posts/{post}/revisions', { visitors: true }),
  route(votePost, 'post', '/posts/{post}/vote'),
  route(confirmAnswer, 'post', '/posts/{post}/outcome'),
  route(clearDispute, 'post', '/posts/{post}/clear-dispute'),
  route(getVoteSettings, 'get', '/votes/settings'),
  route(setVoteSettings, 'put', '/votes/settings'),
  ...MODERATION_ROUTES,
  route(listNotifications, 'get', '/notifications'),
  route(suggestHandles, 'get', '/handles'),
  route(markNotificationsRead, 'post', '/notifications/read'),
  route(setWatchLevel, 'put', '/notifications/level'),
  route(getNotificationPreferences, 'get', '/notifications/preferences'),
  route(setNotificationPreferences, 'put', '/notifications/preferences'),
  route(setMyHandle, 'put', '/account/handle'),
  route(listBookmarks, 'get', '/bookmarks'),
  route(setBookmark, 'put', '/bookmarks'),
  // A flag is not a resource of its own (the review queue lists it): 200, no Location.
  route(flagPost, 'post', '/posts/{post}/flags'),
  // An upload is served at its own URL (the answer's `url`), not under /api/v1: no Location.
  route(uploadFile, 'post', '/uploads', { upload: true }),
  route(hidePost, 'post', '/posts/{post}/hide'),
  route(unhidePost, 'post', '/posts/{post}/unhide'),
  route(reviewQueue, 'get', '/review'),
  route(decideReview, 'post', '/review/decisions'),
  route(listSanctions, 'get', '/sanctions'),
  route(sanctionMember, 'put', '/sanctions/{subject_kind}/{subject}'),
  route(liftSanction, 'delete', '/sanctions/{subject_kind}/{subject}'),
  route(getModerationSettings, 'get', '/settings/moderation'),
  route(setModerationSettings, 'patch', '/settings/moderation'),
  // The apex: the network over every public community.
  route(searchNetwork, 'get', '/search', search),
  route(suggestNetworkAnswer, 'get', '/suggest', { rename: { q: 'question' } }),
  route(findCommunity, 'get', '/communities', { rename: { q: 'subject' } }),
  route(getCommunity, 'get', '/communities/{community}'),
  route(getNetworkTopic, 'get', '/communities/{community}/topics/{topic}'),
  route(askCommunity, 'post', '/communities/{community}/topics', {
    status: 201,
    created: at((p) => `/communities/${enc(p.community!)}/topics`, ['topic', 'id']),
  }),
  route(listMyKeys, 'get', '/me/keys'),
  route(mintMyKey, 'post', '/me/keys', {
    status: 201,
    created: at(() => '/me/keys', ['record', 'id']),
  }),
  route(revokeMyKey, 'delete', '/me/keys/{key}'),
];

/** `{name}` → `:name` (Hono's path syntax). */
export function honoPath(path: string): string {
  return API_PREFIX + path.replace(/\{(\w+)\}/g, ':$1');
}

/** The names of a path's parameters, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}
