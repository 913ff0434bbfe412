// The REST API's route table: which catalogue operation each `/api/v1` route runs, with its method,
// path and success status. Path parameters are input fields of the same name; a GET's query
// parameters are input fields too (`rename` maps a short public name such as `q` onto a field,
// `nest` lifts the fields of an object input such as search `filters` to the query string); other
// methods take a JSON body. Everything else (schemas, credential, scope, handler) is the operation's.
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Server = 'community' | 'network';

export type RestRoute = {
  server: Server;
  /** The catalogue operation's name (unique per server). */
  op: string;
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
  /** The OpenAPI operationId when the operation has a second route (default: its name). */
  id?: string;
};

export const API_PREFIX = '/api/v1';

const community = (
  op: string,
  method: Method,
  path: string,
  extra: Partial<RestRoute> = {},
): RestRoute => ({ server: 'community', op, method, path, ...extra });
const network = (
  op: string,
  method: Method,
  path: string,
  extra: Partial<RestRoute> = {},
): RestRoute => ({ server: 'network', op, method, path, ...extra });
const search = { rename: { q: 'query' }, nest: 'filters' };

export const REST_ROUTES: RestRoute[] = [
  // A community's host (or /c/<slug>).
  community('search_community', 'get', '/search', search),
  community('suggest_answer', 'get', '/suggest', { rename: { q: 'question' } }),
  community('list_categories', 'get', '/categories'),
  community('list_topics', 'get', '/topics'),
  community('create_topic', 'post', '/topics', { status: 201 }),
  community('get_topic', 'get', '/topics/{topic}'),
  community('reply_to_topic', 'post', '/topics/{topic}/posts', { status: 201 }),
  community('mark_solution', 'post', '/topics/{topic}/solution'),
  community('unmark_solution', 'delete', '/topics/{topic}/solution'),
  community('get_topic', 'get', '/articles/{article}', {
    params: { article: 'topic' },
    id: 'get_article',
  }),
  community('revise_article', 'put', '/articles/{article}'),
  community('list_article_revisions', 'get', '/articles/{article}/revisions'),
  community('list_approvals', 'get', '/approvals'),
  community('get_approval', 'get', '/approvals/{id}', { params: { id: 'approval_id' } }),
  community('approve', 'post', '/approvals/{id}/approve', { params: { id: 'approval_id' } }),
  community('reject', 'post', '/approvals/{id}/reject', { params: { id: 'approval_id' } }),
  community('get_approval_policies', 'get', '/settings/approval-policies'),
  community('set_approval_policy', 'put', '/settings/approval-policies/{kind}'),
  community('get_mcp_config', 'get', '/settings/mcp'),
  community('set_mcp_config', 'put', '/settings/mcp'),
  community('list_agents', 'get', '/agents'),
  community('create_agent', 'post', '/agents', { status: 201 }),
  community('update_agent', 'patch', '/agents/{agent}'),
  community('list_agent_keys', 'get', '/agents/{agent}/keys'),
  community('mint_agent_key', 'post', '/agents/{agent}/keys', { status: 201 }),
  community('list_agent_keys', 'get', '/keys', { id: 'list_all_agent_keys' }),
  community('revoke_agent_key', 'delete', '/keys/{key}'),
  community('list_members', 'get', '/members'),
  community('set_member', 'put', '/members/{email}'),
  community('remove_member', 'delete', '/members/{email}'),
  community('list_webhooks', 'get', '/webhooks'),
  community('create_webhook', 'post', '/webhooks', { status: 201 }),
  community('get_webhook', 'get', '/webhooks/{webhook}'),
  community('update_webhook', 'patch', '/webhooks/{webhook}'),
  community('delete_webhook', 'delete', '/webhooks/{webhook}'),
  community('rotate_webhook_secret', 'post', '/webhooks/{webhook}/rotate-secret'),
  community('list_webhook_deliveries', 'get', '/webhooks/{webhook}/deliveries'),
  community('get_webhook_delivery', 'get', '/webhook-deliveries/{delivery}'),
  community('redeliver_webhook', 'post', '/webhook-deliveries/{delivery}/redeliver'),
  // The apex: the network over every public community.
  network('search_network', 'get', '/search', search),
  network('suggest_answer', 'get', '/suggest', { rename: { q: 'question' } }),
  network('find_community', 'get', '/communities', { rename: { q: 'subject' } }),
  network('get_community', 'get', '/communities/{community}'),
  network('get_topic', 'get', '/communities/{community}/topics/{topic}'),
  network('ask_community', 'post', '/communities/{community}/topics', { status: 201 }),
  network('list_my_keys', 'get', '/me/keys'),
  network('mint_my_key', 'post', '/me/keys', { status: 201 }),
  network('revoke_my_key', 'delete', '/me/keys/{key}'),
];

/** `{name}` → `:name` (Hono's path syntax). */
export function honoPath(path: string): string {
  return API_PREFIX + path.replace(/\{(\w+)\}/g, ':$1');
}

/** The names of a path's parameters, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}
