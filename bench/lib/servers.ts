// The HTTP servers the MCP benchmarks measure, each serving one trivial tool, `echo`, which returns
// its `text` argument as a text block, at POST /mcp:
//  - hamlet: the real stack (createMcpStack + InMemorySessionStore + McpHttpTransport on node:http),
//    with the tool declared through zodTool like Hamlet's own tools;
//  - hamlet-no-sessions: the same layers with the engine's sessions turned off (initialize opens no
//    session); the reference for the session memory bench;
//  - limit: hand-written node:http JSON-RPC that parses the body and stringifies a tools/call-shaped
//    result (an empty one for any other method, a small JSON object for a GET), the upper bound for
//    any JSON-RPC server on node:http (bench/real-server.ts measures it against every case);
//  - peer: the official SDK's documented stateless pattern, a new McpServer and
//    StreamableHTTPServerTransport per POST (examples/server/simpleStatelessStreamableHttp.js, with
//    enableJsonResponse so it answers JSON like the others);
//  - sdk-v2: the official v2 server handler, createMcpHandler from @modelcontextprotocol/server (a
//    fresh McpServer from the factory per request, its default JSON response mode), on node:http
//    through @hono/node-server's request listener; it serves both eras, measured on 2026-07-28.
// The "-2026" kinds are measured with a 2026-07-28 request (REQUESTS), the others with a 2025 one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { getRequestListener } from '@hono/node-server';
import {
  createMcpHandler,
  fromJsonSchema,
  McpServer as McpServerV2,
} from '@modelcontextprotocol/server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { McpEngine, type EngineLogger } from '../../src/mcp/engine.ts';
import { McpHttpTransport, type Endpoint } from '../../src/mcp/http-transport.ts';
import { InMemorySessionStore } from '../../src/mcp/memory-sessions.ts';
import { createMcpStack, type McpStack } from '../../src/mcp/stack.ts';
import { StreamHub } from '../../src/mcp/stream-hub.ts';
import type { Surface } from '../../src/mcp/surface.ts';
import { zodTool } from '../../src/mcp/zod-tool.ts';

export const SERVER_KINDS = [
  'hamlet',
  'hamlet-no-sessions',
  'limit',
  'peer',
  'hamlet-2026',
  'limit-2026',
  'sdk-v2',
] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];
/** The server a kind runs: the "-2026" kinds are the same servers, measured with a 2026-07-28 request. */
const SERVES: Record<ServerKind, 'hamlet' | 'hamlet-no-sessions' | 'limit' | 'peer' | 'sdk-v2'> = {
  hamlet: 'hamlet',
  'hamlet-no-sessions': 'hamlet-no-sessions',
  limit: 'limit',
  peer: 'peer',
  'hamlet-2026': 'hamlet',
  'limit-2026': 'limit',
  'sdk-v2': 'sdk-v2',
};

export const MCP_PATH = '/mcp';
export const ECHO_TEXT = 'hello';

/** One HTTP request of a bench, byte for byte (POST when no method is given). */
export type BenchRequest = {
  method?: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
};

/** The `_meta` a 2026-07-28 request carries: protocol version, client capabilities and info. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};

/**
 * A stateless 2025-era JSON-RPC request (id 1): the body and the headers a client sends after its
 * first exchange (the SDK transport requires both Accept types); `extra` adds headers (a key).
 */
export function legacyRequest(
  method: string,
  params: Record<string, unknown> | undefined,
  version: string,
  extra: Record<string, string> = {},
): BenchRequest {
  return {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      ...extra,
    },
  };
}

/**
 * A 2026-07-28 request (id 1): version and capabilities in `_meta`, and the headers that mirror the
 * body (MCP-Protocol-Version, Mcp-Method, and Mcp-Name for a method that names a tool or prompt).
 */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  extra: Record<string, string> = {},
): BenchRequest {
  const name = typeof params.name === 'string' ? params.name : undefined;
  return {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: MODERN_META },
    }),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
      ...extra,
    },
  };
}

const ECHO_PARAMS = { name: 'echo', arguments: { text: ECHO_TEXT } };
/** The request every echo throughput run sends, byte for byte, to every server. */
const LEGACY_REQUEST = legacyRequest('tools/call', ECHO_PARAMS, '2025-06-18');
/** The same call in the 2026-07-28 era. */
const MODERN_REQUEST = modernRequest('tools/call', ECHO_PARAMS);

/** The request each kind is measured with. */
export function requestOf(kind: ServerKind): BenchRequest {
  return kind.endsWith('-2026') || kind === 'sdk-v2' ? MODERN_REQUEST : LEGACY_REQUEST;
}

export type BenchServer = { server: Server; sessionCount?: () => Promise<number>; stop(): void };

/** Logs engine failures (a benchmark must not hide them) but at most a few. */
function benchLogger(): EngineLogger {
  let shown = 0;
  const log = (obj: object, msg?: string) => {
    if (shown++ < 5) console.error(`[server] ${msg ?? ''}`, obj);
  };
  return { warn: log, error: log };
}

export function echoSurface(): Surface {
  return {
    serverInfo: { name: 'hamlet-bench', version: '0.0.0' },
    tools: [
      zodTool({
        name: 'echo',
        description: 'Returns its text argument as a text block.',
        input: z.object({ text: z.string() }),
        handler: async ({ text }) => ({ content: [{ type: 'text', text }] }),
      }),
    ],
    prompts: [],
    resources: [],
    templates: [],
  };
}

const STACK_LIMITS = { maxBodyBytes: 1_000_000, maxBatch: 100 };

function mcpPathOnly(handle: (req: IncomingMessage, res: ServerResponse) => void): Server {
  return createServer((req, res) => {
    if ((req.url ?? '/').split('?')[0] !== MCP_PATH) {
      res.writeHead(404).end();
      return;
    }
    handle(req, res);
  });
}

function hamletServer(): BenchServer {
  const endpoint: Endpoint = { scope: 'bench', surface: echoSurface() };
  const sessions = new InMemorySessionStore();
  const stack: McpStack = createMcpStack({
    sessions,
    logger: benchLogger(),
    sessionIdleMs: 600_000,
    // The memory bench opens thousands of sessions from one address: the per-address cap would stop it.
    sessionCaps: { perClientIp: Number.MAX_SAFE_INTEGER, perOwner: Number.MAX_SAFE_INTEGER },
    ...STACK_LIMITS,
    resolve: () => endpoint,
  });
  const server = mcpPathOnly((req, res) => {
    stack.transport.handle(req, res).catch(() => {});
  });
  return { server, sessionCount: () => sessions.count(), stop: () => stack.stop() };
}

/** createMcpStack without the sweeper and with `sessionsEnabled: false` (the stack has no switch for it). */
function hamletNoSessionsServer(): BenchServer {
  const endpoint: Endpoint = { scope: 'bench', surface: echoSurface() };
  const sessions = new InMemorySessionStore();
  const engine = new McpEngine(sessions, benchLogger(), { sessionsEnabled: false });
  const hub = new StreamHub(sessions);
  engine.setOutbox(hub.toSession);
  const transport = new McpHttpTransport({ engine, hub, ...STACK_LIMITS, resolve: () => endpoint });
  const server = mcpPathOnly((req, res) => {
    transport.handle(req, res).catch(() => {});
  });
  return { server, sessionCount: () => sessions.count(), stop() {} };
}

/**
 * A file of request bodies and the results the limit answers them with (what the real server
 * answered the same request), named by this environment variable (bench/real-server.ts).
 */
export const LIMIT_ANSWERS_ENV = 'BENCH_LIMIT_ANSWERS';

/**
 * The least a JSON-RPC server on node:http can do: read the body, JSON.parse it, JSON.stringify an
 * answer. A request listed in the answers file gets its result from there, a tools/call of `echo`
 * its text block back, any other request an empty result (what `ping` answers); a GET (the
 * reference for REST and web pages) a small JSON object.
 */
function limitServer(): BenchServer {
  const file = process.env[LIMIT_ANSWERS_ENV];
  const answers = new Map<string, unknown>(
    file ? Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : [],
  );
  const server = mcpPathOnly((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: string;
      let status = 200;
      try {
        if (req.method === 'GET') body = '{"ok":true}';
        else {
          const raw = Buffer.concat(chunks).toString('utf8');
          const msg = JSON.parse(raw);
          const text = msg.method === 'tools/call' ? msg.params?.arguments?.text : undefined;
          body = JSON.stringify({
            jsonrpc: '2.0',
            id: msg.id,
            result:
              answers.get(raw) ??
              (text === undefined
                ? {}
                : { content: [{ type: 'text', text: String(text) }], isError: false }),
          });
        }
      } catch {
        status = 400;
        body = JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Invalid JSON.' },
        });
      }
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  return { server, stop() {} };
}

function peerServer(): BenchServer {
  const server = mcpPathOnly((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    // The SDK example parses the body with express.json() and passes it on; do the same by hand.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        let parsedBody: unknown;
        try {
          parsedBody = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: null,
              error: { code: -32700, message: 'Parse error' },
            }),
          );
          return;
        }
        const mcp = new McpServer({ name: 'peer', version: '1.0.0' });
        mcp.registerTool(
          'echo',
          {
            description: 'Returns its text argument as a text block.',
            inputSchema: { text: z.string() },
          },
          async ({ text }) => ({ content: [{ type: 'text', text }] }),
        );
        try {
          const transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: undefined,
            enableJsonResponse: true,
          });
          res.on('close', () => {
            void transport.close();
            void mcp.close();
          });
          await mcp.connect(transport);
          await transport.handleRequest(req, res, parsedBody);
        } catch (err) {
          console.error('[peer] request failed', err);
          if (!res.headersSent) {
            res.writeHead(500, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                jsonrpc: '2.0',
                id: null,
                error: { code: -32603, message: 'Internal server error' },
              }),
            );
          }
        }
      })();
    });
  });
  return { server, stop() {} };
}

function sdkV2Server(): BenchServer {
  // A JSON Schema through the SDK's own adapter (its zod is newer than the one Hamlet pins), made
  // once like any schema a server defines; the factory builds an McpServer per request, as documented.
  const input = fromJsonSchema<{ text: string }>({
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  });
  const handler = createMcpHandler(() => {
    const mcp = new McpServerV2({ name: 'sdk-v2', version: '1.0.0' });
    mcp.registerTool(
      'echo',
      { description: 'Returns its text argument as a text block.', inputSchema: input },
      async ({ text }) => ({
        content: [{ type: 'text', text }],
      }),
    );
    return mcp;
  });
  const listener = getRequestListener((request) => handler.fetch(request));
  const server = mcpPathOnly((req, res) => {
    void listener(req, res);
  });
  return { server, stop: () => void handler.close() };
}

export function createBenchServer(kind: ServerKind): BenchServer {
  switch (SERVES[kind]) {
    case 'hamlet':
      return hamletServer();
    case 'hamlet-no-sessions':
      return hamletNoSessionsServer();
    case 'limit':
      return limitServer();
    case 'peer':
      return peerServer();
    case 'sdk-v2':
      return sdkV2Server();
  }
}
