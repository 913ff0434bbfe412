// The cheap way to test Hamlet through its faces: one Hamlet per test file, in the test process,
// started from the template database (no migrations, no seed) at the first use and stopped when the
// file ends. Requests go to it over loopback with the Host header set, so no *.localhost name has to
// resolve; MCP is one JSON-RPC POST (the stateless form, no initialize).
//
//   import { fileHamlet } from '../helpers/in-process.ts';
//   const hamlet = fileHamlet({ demo: true });   // once per file, at the top
//   test('a topic page shows its title', async () => {
//     const h = await hamlet();
//     const page = await h.get('acme', '/t/verifying-the-hamlet-signature-header');
//     assert.equal(page.status, 200);
//     const key = await h.agentKey();            // the demo agent's key on acme
//     const rest = await h.get('acme', '/api/v1/topics', { headers: { authorization: `Bearer ${key}` } });
//     const out = await h.tool('acme', key, 'get_topic', { topic: '…' });
//     assert.equal(out.result.structuredContent.topic.title, '…');
//   });
//
// Tests of one file share the Hamlet: give each its own community or topic when they write, or read
// only. Where the process or the socket is the subject (restarts, kill -9, several instances, nginx,
// SDK clients), start one yourself (startTestHamlet in test/app/helpers.ts, serveProcess in serve.ts).
// Why not a fake socket: a request over loopback costs 2–5 ms of CPU, nearly all of it Hamlet's own
// work; a test process costs about a second before its first test, and a server start 0.15 s.
import { after } from 'node:test';
import { freshDemoAgentKey } from '../../src/demo/demo-key.ts';
import { startTestHamlet, type TestHamlet, type TestHamletOptions } from '../app/helpers.ts';
import { raw, rpc, type RawResponse } from '../mcp/http-client.ts';

export type FileHamlet = TestHamlet & {
  /** `host:port` of a community (its slug) or of the network (null). */
  host(slug: string | null): string;
  /** GET (or `init.method`) `path` on a community's host, or the network's (slug null). */
  get(
    slug: string | null,
    path: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<RawResponse>;
  /** One MCP JSON-RPC request to a community's /api/mcp (null: the network's), as `key`. */
  mcpCall(
    slug: string | null,
    key: string | undefined,
    method: string,
    params?: unknown,
  ): Promise<any>;
  /** tools/call of `name` with `args`: the JSON-RPC answer ({ result } or { error }). */
  tool(slug: string | null, key: string | undefined, name: string, args?: object): Promise<any>;
  /** A fresh key of the demo agent on acme (with `demo: true`); earlier ones are revoked. */
  agentKey(): Promise<string>;
};

/**
 * `() => Promise<FileHamlet>`: the file's Hamlet, started at the first call (with `env` and
 * `options` as startTestHamlet takes them) and stopped after the file's last test.
 */
export function fileHamlet(
  env: Record<string, string> = {},
  options: TestHamletOptions = {},
): () => Promise<FileHamlet> {
  let started: Promise<FileHamlet> | undefined;
  after(async () => {
    if (started) await (await started).stop();
  });
  return () => (started ??= start(env, options));
}

async function start(env: Record<string, string>, options: TestHamletOptions) {
  const h = await startTestHamlet(env, options);
  const base = new URL(h.url).hostname;
  const host = (slug: string | null) => `${slug ? `${slug}.` : ''}${base}:${h.port}`;
  let id = 0;
  const mcpCall = async (
    slug: string | null,
    key: string | undefined,
    method: string,
    params = {},
  ) => {
    const res = await rpc(
      `http://${host(slug)}/api/mcp`,
      { jsonrpc: '2.0', id: ++id, method, params },
      {
        accept: 'application/json, text/event-stream',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
    );
    return res.json();
  };
  const hamlet: FileHamlet = {
    ...h,
    host,
    get: (slug, path, init = {}) =>
      raw(`http://${host(slug)}${path}`, { ...init, headers: { ...init.headers } }),
    mcpCall,
    tool: (slug, key, name, args = {}) =>
      mcpCall(slug, key, 'tools/call', { name, arguments: args }),
    agentKey: async () => {
      const made = await freshDemoAgentKey(h.store, h.services.agents);
      if (!made) throw new Error('no demo community: start the file Hamlet with { demo: true }');
      return made.key;
    },
  };
  return hamlet;
}
