// The request headers of the 2026-07-28 era: MCP-Protocol-Version, Mcp-Method and Mcp-Name mirror
// the body so that gateways can route without parsing it, and tools may ask for arguments to be
// mirrored too (`x-mcp-header` → Mcp-Param-<Name>). The server must see the same values in both
// places: a header missing, malformed or disagreeing with the body is HTTP 400, -32020.
import type { IncomingMessage } from 'node:http';
import { ErrorCode, RpcError, type JsonRpcRequest } from './jsonrpc.ts';
import type { ToolDef } from './surface.ts';

/** The body field each method mirrors into Mcp-Name. */
const NAME_SOURCE: Record<string, 'name' | 'uri' | 'taskId'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // The Tasks extension: a router keeps a task's requests on the instance that holds it.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** A header's value without the optional whitespace around it (which HTTP parsing excludes). */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const raw = req.headers[name];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === undefined || v.length === 0) return v;
  const first = v.charCodeAt(0);
  const last = v.charCodeAt(v.length - 1);
  return first === 0x20 || first === 0x09 || last === 0x20 || last === 0x09
    ? v.replace(/^[ \t]+|[ \t]+$/g, '')
    : v;
}

export function mismatch(what: string, data?: unknown): RpcError {
  return new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${what}`, data);
}

/** MCP-Protocol-Version, Mcp-Method and (where the method has one) Mcp-Name: present and equal to the body. */
export function checkStandardHeaders(
  req: IncomingMessage,
  request: JsonRpcRequest,
): RpcError | undefined {
  if (headerOf(req, 'mcp-protocol-version') === undefined)
    return mismatch('the MCP-Protocol-Version header is required.');
  const method = headerOf(req, 'mcp-method');
  if (method === undefined)
    return mismatch(`the Mcp-Method header is required (the body's method is ${request.method}).`);
  if (method !== request.method)
    return mismatch(
      `Mcp-Method header value '${method}' does not match body value '${request.method}'.`,
    );
  const source = Object.hasOwn(NAME_SOURCE, request.method)
    ? NAME_SOURCE[request.method]
    : undefined;
  const bodyValue = source ? request.params?.[source] : undefined;
  if (typeof bodyValue !== 'string') return undefined;
  const raw = headerOf(req, 'mcp-name');
  if (raw === undefined)
    return mismatch(
      `the Mcp-Name header is required for ${request.method} (params.${source} is '${bodyValue}').`,
    );
  const decoded = decodeHeaderValue(raw);
  if (decoded === undefined)
    return mismatch('the Mcp-Name header carries an invalid Base64 value.');
  if (decoded !== bodyValue)
    return mismatch(`Mcp-Name header value '${raw}' does not match body value '${bodyValue}'.`);
  return undefined;
}

type Mirrored = { path: string[]; header: string };
const mirroredOf = new WeakMap<ToolDef, Mirrored[]>();

/** The arguments a tool mirrors into Mcp-Param-* headers (from `x-mcp-header` in its input schema). */
export function mirroredArguments(tool: ToolDef): Mirrored[] {
  let found = mirroredOf.get(tool);
  if (!found) {
    found = [];
    const walk = (schema: unknown, path: string[]) => {
      const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
      if (!props || typeof props !== 'object') return;
      for (const [key, def] of Object.entries(props)) {
        const header = (def as Record<string, unknown> | undefined)?.['x-mcp-header'];
        if (typeof header === 'string') found!.push({ path: [...path, key], header });
        walk(def, [...path, key]);
      }
    };
    walk(tool.inputSchema, []);
    mirroredOf.set(tool, found);
  }
  return found;
}

/** Every Mcp-Param-<Name> a tool declares: present when the argument is, and equal to it. */
export function checkParamHeaders(
  req: IncomingMessage,
  tool: ToolDef,
  args: unknown,
): RpcError | undefined {
  for (const { path, header } of mirroredArguments(tool)) {
    let value: unknown = args;
    for (const key of path)
      value =
        value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    const raw = headerOf(req, `mcp-param-${header.toLowerCase()}`);
    if (value === undefined || value === null) continue;
    if (raw === undefined)
      return mismatch(
        `the Mcp-Param-${header} header is required: arguments.${path.join('.')} is set.`,
      );
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined)
      return mismatch(`the Mcp-Param-${header} header carries an invalid value.`);
    const same = typeof value === 'number' ? Number(decoded) === value : decoded === String(value);
    if (!same)
      return mismatch(
        `Mcp-Param-${header} header value '${raw}' does not match arguments.${path.join('.')}.`,
      );
  }
  return undefined;
}

const SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header value as the body would carry it: `=?base64?…?=` decoded strictly, anything else literal. */
export function decodeHeaderValue(raw: string): string | undefined {
  if (/[^\t\x20-\x7e]/.test(raw)) return undefined;
  const m = SENTINEL.exec(raw);
  if (!m) return raw;
  if (!BASE64.test(m[1]!)) return undefined;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  return text.includes('\ufffd') ? undefined : text;
}
