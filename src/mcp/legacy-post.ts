// The legacy era's POST (2025-11-25 and the versions before it): one JSON-RPC message or a batch.
// Batch members are admitted (one unit each beyond the first), classified and run concurrently;
// the answers keep the order of the requests and go back as one JSON body, or as an SSE stream when
// the client holds a session and accepts one (PostChannel upgrades as soon as a request has
// something to say before its result). At most one initialize per POST; an unknown session id is
// refused unless the POST only initializes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientAddress } from './client-address.ts';
import { CORS_RESPONSE_HEADERS } from './cors.ts';
import type { Exchange, McpEngine } from './engine.ts';
import { credentialOf, header, rpcError, send, tooMany, type Reply } from './http-reply.ts';
import { classify, ErrorCode, ErrorText, failure, type JsonRpcResponse } from './jsonrpc.ts';
import { PostChannel } from './post-channel.ts';
import type { SessionRecord } from './session-store.ts';
import type { StreamHub } from './stream-hub.ts';
import type { Admission, AnsweredHook, Endpoint } from './transport-types.ts';
import { PREFERRED_PROTOCOL_VERSION } from './versions.ts';

/** What a legacy POST needs of the transport. */
export type LegacyPostDeps = {
  engine: McpEngine;
  hub: StreamHub;
  maxBatch: number;
  retryMs: number;
  admit?: (clientKey: string, messages: number) => Admission | Promise<Admission>;
  onAnswered?: AnsweredHook;
  /** Who owns the session the request opens or uses. */
  ownerOf(req: IncomingMessage, endpoint: Endpoint): string | undefined;
  /** The session the request names, if it is on this endpoint and the request's credential's. */
  session(id: string, endpoint: Endpoint, req: IncomingMessage): Promise<SessionRecord | undefined>;
};

export type LegacyPost = {
  req: IncomingMessage;
  res: ServerResponse;
  endpoint: Endpoint;
  versionHeader: string | undefined;
  /** The parsed JSON body. */
  body: unknown;
  client: ClientAddress;
};

/** Answers one legacy-era POST whose body is already read and parsed. */
export async function serveLegacyPost(d: LegacyPostDeps, p: LegacyPost): Promise<void> {
  const { req, res, endpoint, versionHeader, body, client } = p;
  const accept = header(req, 'accept');
  const isBatch = Array.isArray(body);
  const items: unknown[] = isBatch ? (body as unknown[]) : [body];
  if (isBatch && items.length === 0)
    return send(
      res,
      rpcError(400, { code: ErrorCode.InvalidRequest, message: ErrorText.emptyBatch }),
    );
  if (items.length > d.maxBatch) {
    return send(
      res,
      rpcError(400, {
        code: ErrorCode.InvalidRequest,
        message: `Batch too large: at most ${d.maxBatch} messages per POST.`,
      }),
    );
  }
  if (items.length > 1) {
    const more = await d.admit?.(client.key, items.length - 1);
    if (more && !more.ok) return send(res, tooMany(more.message, more.retryAfterSeconds));
  }
  const classified = items.map(classify);
  if (!isBatch && classified[0]!.kind === 'invalid') {
    const bad = classified[0] as Extract<ReturnType<typeof classify>, { kind: 'invalid' }>;
    return send(res, {
      status: 400,
      headers: baseHeaders(versionHeader),
      body: failure(bad.id, bad.error),
    });
  }
  // One session per POST: the second and later initialize of a batch are refused.
  let initializes = 0;
  for (let i = 0; i < classified.length; i++) {
    const c = classified[i]!;
    if (c.kind === 'request' && c.message.method === 'initialize' && ++initializes > 1) {
      classified[i] = {
        kind: 'invalid',
        id: c.message.id,
        error: { code: ErrorCode.InvalidRequest, message: 'At most one initialize per POST.' },
      };
    }
  }

  // Session: an unknown id is refused (the client must start over), except for a fresh initialize.
  const sessionId = header(req, 'mcp-session-id');
  let session: SessionRecord | undefined;
  if (sessionId) {
    session = await d.session(sessionId, endpoint, req);
    const onlyInitialize = classified.every(
      (c) => c.kind === 'request' && c.message.method === 'initialize',
    );
    if (!session && !onlyInitialize) return send(res, sessionNotFound());
  }

  const exchange: Exchange = {
    surface: endpoint.surface,
    scope: endpoint.scope,
    credential: credentialOf(req),
    // Only an initialize opens a session; hashing the credential for every other POST cost ~4% of a ping.
    owner: initializes > 0 ? d.ownerOf(req, endpoint) : undefined,
    context: endpoint.context,
    clientIp: client.address,
    clientKey: client.key,
    protocolVersion: versionHeader ?? session?.protocolVersion,
    session,
  };
  const canStream = Boolean(session) && /text\/event-stream/i.test(accept ?? '');
  const channel = session ? new PostChannel(res, d.hub, session, canStream, d.retryMs) : undefined;
  exchange.channel = channel;

  // Batch members run concurrently; answers keep the order of the requests.
  const answers = await Promise.all(
    classified.map(async (c, position): Promise<JsonRpcResponse | undefined> => {
      if (c.kind === 'invalid') return failure(c.id, c.error);
      if (c.kind === 'notification') await d.engine.handleNotification(c.message, exchange);
      else if (c.kind === 'response') d.engine.handleClientResponse(c.message, exchange);
      else {
        const response = await d.engine.handleRequest(c.message, exchange);
        d.onAnswered?.(req, c.message, response, position);
        return response;
      }
      return undefined;
    }),
  );
  const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined);

  const headers = baseHeaders(negotiatedVersion(classified, responses) ?? exchange.protocolVersion);
  if (exchange.createdSessionId) headers['mcp-session-id'] = exchange.createdSessionId;
  else if (session) headers['mcp-session-id'] = session.id;

  if (channel?.streaming) return channel.finish(responses);
  const requestCount = classified.filter(
    (c) => c.kind === 'request' || c.kind === 'invalid',
  ).length;
  if (requestCount === 0) return send(res, { status: 202, headers });
  if (responses.length === 0) {
    // Every request was cancelled; nothing is owed, but the HTTP exchange must end.
    return send(res, { status: 202, headers });
  }
  return send(res, { status: 200, headers, body: isBatch ? responses : responses[0] });
}

function baseHeaders(version: string | undefined): Record<string, string> {
  const h: Record<string, string> = Object.assign({}, CORS_RESPONSE_HEADERS);
  h['mcp-protocol-version'] = version ?? PREFERRED_PROTOCOL_VERSION;
  return h;
}

/** The protocol version an initialize in this POST settled on, if there was one. */
function negotiatedVersion(
  classified: ReturnType<typeof classify>[],
  responses: JsonRpcResponse[],
): string | undefined {
  for (const c of classified) {
    if (c.kind !== 'request' || c.message.method !== 'initialize') continue;
    const id = c.message.id;
    const r = responses.find((x) => x.id === id && 'result' in x) as
      { result: { protocolVersion?: string } } | undefined;
    if (r?.result.protocolVersion) return r.result.protocolVersion;
  }
  return undefined;
}

export function sessionNotFound(): Reply {
  return rpcError(404, {
    code: ErrorCode.SessionNotFound,
    message:
      'Session not found: it expired or was deleted. Send initialize again, or drop the Mcp-Session-Id header to work statelessly.',
  });
}
