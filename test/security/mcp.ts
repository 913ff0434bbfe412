// A small MCP client for the security suite: JSON-RPC calls and tool calls against a Hamlet started
// by the tests, returning what an agent would read (HTTP status, JSON-RPC error or tool result).
import { rpc, type RawResponse } from '../mcp/http-client.ts';

export type ToolAnswer = {
  status: number;
  rpcError?: { code: number; message: string };
  isError?: boolean;
  structured?: any;
};

let nextId = 1;

export async function callMethod(
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return rpc(
    url,
    { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) },
    headers,
  );
}

export async function callTool(
  url: string,
  name: string,
  args: unknown,
  key?: string,
  headers: Record<string, string> = {},
): Promise<ToolAnswer> {
  const res = await callMethod(
    url,
    'tools/call',
    { name, arguments: args },
    key ? { authorization: `Bearer ${key}`, ...headers } : headers,
  );
  if (!res.text) return { status: res.status };
  const body = res.json();
  if (body.error) return { status: res.status, rpcError: body.error };
  return {
    status: res.status,
    isError: body.result.isError,
    structured: body.result.structuredContent,
  };
}
