// The cases of bench/real-server.ts: what a client of each face sends to a community in the path
// form (`/c/acme/…`, Host 127.0.0.1), built from the demo agent key, and how a right answer looks.
// Every case names the limit it is compared with: the hand-written server of servers.ts given the
// same kind of request (the cheapest JSON-RPC request of the case's era, or a GET).
import type { Answer } from './send.ts';
import { legacyRequest, modernRequest, type BenchRequest } from './servers.ts';

/** The demo topic read by get_topic, REST and the web page (it has an accepted answer). */
export const TOPIC = 'verifying-the-hamlet-signature-header';
export const SEARCH_QUERY = 'webhook signature verification';
const PATH_FORM = '/c/acme';
/** The demo community's own host under HAMLET_BASE_DOMAIN=localhost (what older checkouts serve). */
export const COMMUNITY_HOST = 'acme.localhost';
const LEGACY_VERSION = '2025-11-25';

/**
 * What a case is compared with: its era's cheapest JSON-RPC request, a small GET, or (`answer …`)
 * the limit given the very same request and answering it with the same result the real server
 * gave (a tools/list answer is 100 KB: a 50-byte ping answer is no reference for sending it).
 */
export type LimitShape = 'mcp-2025' | 'mcp-2026' | 'get' | `answer ${string}`;
export type RealCase = {
  id: string;
  /** Path on the server, query included. */
  path: string;
  request: BenchRequest;
  limit: LimitShape;
  /** Why the answer is wrong, or undefined when it is right. */
  check(answer: Answer): string | undefined;
};

type McpCall = { id: string; method: string; params?: Record<string, unknown> };
const TOOL_CALLS: McpCall[] = [
  { id: 'tools/list', method: 'tools/list' },
  {
    id: 'get_topic',
    method: 'tools/call',
    params: { name: 'get_topic', arguments: { topic: TOPIC } },
  },
  {
    id: 'search_community',
    method: 'tools/call',
    params: { name: 'search_community', arguments: { query: SEARCH_QUERY } },
  },
];
/**
 * The floor of each era, its cheapest request: `ping` in 2025; 2026-07-28 has no ping (Hamlet
 * answers it -32601, unknown method), and `server/discover` is what a client of that era sends
 * without a handshake.
 */
const FLOOR: Record<'2025' | '2026', McpCall> = {
  '2025': { id: 'ping', method: 'ping' },
  '2026': { id: 'server/discover', method: 'server/discover' },
};

/** A JSON-RPC result for id 1 that is not a failed tool call. */
function rpcResult(a: Answer): string | undefined {
  if (a.status !== 200) return `HTTP ${a.status}`;
  if (!/^application\/json\b/i.test(a.contentType)) return `content-type ${a.contentType}`;
  let msg: { jsonrpc?: unknown; id?: unknown; result?: { isError?: unknown }; error?: unknown };
  try {
    msg = JSON.parse(a.text);
  } catch {
    return 'not JSON';
  }
  if (msg.jsonrpc !== '2.0' || msg.id !== 1 || msg.error !== undefined || !msg.result)
    return 'not a JSON-RPC result for id 1';
  if (msg.result.isError === true) return 'the tool failed (isError)';
  return undefined;
}

/**
 * Every case, in the order they are measured. `byHost`: the community addressed by its own host
 * (`Host: acme.localhost`, paths without `/c/acme`), as checkouts older than the path form need.
 */
export function realCases(key: string, byHost = false): RealCase[] {
  const auth: Record<string, string> = { authorization: `Bearer ${key}` };
  if (byHost) auth.host = COMMUNITY_HOST;
  const COMMUNITY = byHost ? '' : PATH_FORM;
  const cases: RealCase[] = [];
  for (const era of ['2025', '2026'] as const)
    for (const call of [FLOOR[era], ...TOOL_CALLS])
      cases.push({
        id: `mcp-${era} ${call.id}`,
        path: `${COMMUNITY}/api/mcp`,
        request:
          era === '2025'
            ? legacyRequest(call.method, call.params, LEGACY_VERSION, auth)
            : modernRequest(call.method, call.params, auth),
        limit:
          call.id === 'tools/list'
            ? `answer mcp-${era} ${call.id}`
            : era === '2025'
              ? 'mcp-2025'
              : 'mcp-2026',
        check: rpcResult,
      });
  cases.push({
    id: 'rest GET /topics/{topic}',
    path: `${COMMUNITY}/api/v1/topics/${TOPIC}`,
    request: { method: 'GET', headers: { accept: 'application/json', ...auth } },
    limit: 'get',
    check: (a) =>
      a.status !== 200
        ? `HTTP ${a.status}`
        : !a.text.includes(`"slug":"${TOPIC}"`)
          ? 'not the topic'
          : undefined,
  });
  cases.push({
    id: 'web /t/<slug>',
    path: `${COMMUNITY}/t/${TOPIC}`,
    request: {
      method: 'GET',
      headers: { accept: 'text/html', ...(byHost ? { host: COMMUNITY_HOST } : {}) },
    },
    limit: 'get',
    check: (a) =>
      a.status !== 200
        ? `HTTP ${a.status}`
        : !/^text\/html\b/i.test(a.contentType)
          ? `content-type ${a.contentType}`
          : undefined,
  });
  return cases;
}

/** The request the limit server gets for each shape: the same bytes as the case it stands for. */
export function limitRequests(cases: RealCase[]): (shape: LimitShape) => BenchRequest {
  const of = (id: string) => cases.find((c) => c.id === id)!.request;
  return (shape) =>
    shape === 'mcp-2025'
      ? of('mcp-2025 ping')
      : shape === 'mcp-2026'
        ? of('mcp-2026 server/discover')
        : shape === 'get'
          ? of('rest GET /topics/{topic}')
          : of(shape.slice('answer '.length));
}

/** The cases whose limit answers what the real server answered (their shape is `answer <id>`). */
export const answeredByLimit = (cases: RealCase[]): RealCase[] =>
  cases.filter((c) => c.limit === `answer ${c.id}`);
