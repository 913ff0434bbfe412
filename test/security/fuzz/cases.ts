// The fuzzer's cases, one HTTP request each, drawn from a seed: the same seed gives the same cases.
// About half call a tool with arguments generated from its input schema; the rest send JSON-RPC
// envelopes, batches, content methods (resources, prompts, completion), odd headers and raw bodies,
// and now and then a web page or the path form with a hostile segment.
import { HOSTILE_STRINGS, HOSTILE_VALUES, rng, valueFor, type Rng } from './generate.ts';

export type FuzzTarget = {
  url: string;
  key: string;
  tools: Array<{ name: string; inputSchema: object }>;
};
export type FuzzCase = {
  index: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
};

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'server/discover',
  'nope',
  '',
  'rpc.x',
] as const;
const VERSIONS = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2026-07-28',
  '1999-01-01',
  '',
  'x'.repeat(300),
];
const URIS = [
  'hamlet://acme/guidelines',
  'hamlet://acme/categories',
  'hamlet://acme/topics/{id}',
  'hamlet://acme/articles/{id}',
  'hamlet://skunkworks/guidelines',
  'hamlet://{id}/topics/x',
  'file:///etc/passwd',
  'hamlet://',
  '',
];
const PROMPTS = [
  'ask_a_good_question',
  'answer_from_community',
  'summarize_topic',
  'triage_bug',
  'nope',
];

/** Targets in order: a public community, a private one, the network, an unknown host (rarely). */
const TARGET_WEIGHTS = [0.45, 0.2, 0.3, 0.05];

export function* cases(
  seed: number,
  count: number,
  targets: FuzzTarget[],
  keys: string[],
): Generator<FuzzCase> {
  const r = rng(seed);
  for (let index = 0; index < count; index++) {
    const target = weighted(r, targets, TARGET_WEIGHTS);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...credential(r, target, keys),
    };
    const roll = r.next();
    let body: string | undefined;
    let method = 'POST';
    // Tool calls and content methods come in well-formed envelopes, so they reach the tools.
    if (roll < 0.55 && target.tools.length) body = JSON.stringify(toolCall(r, target));
    else if (roll < 0.7) body = JSON.stringify(contentMethod(r));
    else if (roll < 0.88) {
      Object.assign(headers, oddHeaders(r));
      body = JSON.stringify(
        r.chance(0.25) ? Array.from({ length: 1 + r.int(5) }, () => envelope(r)) : envelope(r),
      );
    } else if (roll < 0.93) body = rawBody(r);
    else if (roll < 0.97) {
      yield {
        index,
        method: 'GET',
        url: webUrl(r, target.url),
        headers: credential(r, target, keys),
      };
      continue;
    } else {
      Object.assign(headers, oddHeaders(r));
      method = r.pick(['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD']);
      body = undefined;
    }
    yield { index, method, url: target.url, headers, body };
  }
}

function weighted<T>(r: Rng, items: T[], weights: number[]): T {
  let roll = r.next() * weights.slice(0, items.length).reduce((a, b) => a + b, 0);
  for (let i = 0; i < items.length; i++) if ((roll -= weights[i] ?? 0) < 0) return items[i]!;
  return items[items.length - 1]!;
}

function credential(r: Rng, target: FuzzTarget, keys: string[]): Record<string, string> {
  const key = r.chance(0.8)
    ? target.key
    : r.chance(0.5)
      ? r.pick(keys)
      : r.pick(HOSTILE_STRINGS.filter((s) => /^[\x20-\x7e]*$/.test(s)));
  if (r.chance(0.08)) return {};
  return r.chance(0.8) ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
}

/** Headers a client may get wrong (all printable: Node refuses control characters in headers). */
function oddHeaders(r: Rng): Record<string, string> {
  const h: Record<string, string> = {};
  if (r.chance(0.1)) h['mcp-protocol-version'] = r.pick(VERSIONS);
  if (r.chance(0.05))
    h['mcp-session-id'] = r.pick([
      'x',
      '00000000-0000-0000-0000-000000000000',
      'a'.repeat(500),
      '../..',
    ]);
  if (r.chance(0.05))
    h['content-type'] = r.pick([
      'text/plain',
      'application/json; charset=latin1',
      'multipart/form-data',
      '',
    ]);
  if (r.chance(0.05))
    h.accept = r.pick([
      'text/html',
      'text/event-stream',
      '*/*',
      'application/json, text/event-stream',
    ]);
  if (r.chance(0.05)) h['last-event-id'] = r.pick(['main.1', 'x', '-1', '9'.repeat(40)]);
  return h;
}

/** A request id: a plain number, or (in envelopes) anything at all. */
function id(r: Rng, odd = 0): unknown {
  return r.chance(odd)
    ? r.pick(['x', null, 1.5, 2 ** 60, -1, {}, [], true, 'é'.repeat(10)])
    : 1 + r.int(1000);
}

function toolCall(r: Rng, target: FuzzTarget): unknown {
  const tool = r.pick(target.tools);
  const args = r.chance(0.9) ? valueFor(tool.inputSchema, r) : r.pick(HOSTILE_VALUES);
  const name = r.chance(0.95)
    ? tool.name
    : r.pick([...HOSTILE_STRINGS.slice(0, 10), 'execute', 'search']);
  return {
    jsonrpc: '2.0',
    id: id(r, 0.03),
    method: 'tools/call',
    params: r.chance(0.97) ? { name, arguments: args } : r.pick(HOSTILE_VALUES),
  };
}

function contentMethod(r: Rng): unknown {
  const fill = (uri: string) =>
    uri.replace(
      '{id}',
      String(r.pick([...HOSTILE_STRINGS, 'verifying-the-hamlet-signature-header'])),
    );
  const text = () =>
    r.chance(0.5) ? r.pick(HOSTILE_STRINGS) : valueFor({ type: 'string', maxLength: 60 }, r);
  const byMethod: Record<string, () => unknown> = {
    'resources/read': () => ({ uri: fill(r.pick(URIS)) }),
    'resources/subscribe': () => ({ uri: fill(r.pick(URIS)) }),
    'prompts/get': () => ({
      name: r.pick(PROMPTS),
      arguments: r.chance(0.9)
        ? { problem: text(), question: text(), topic: text(), category: text(), tags: text() }
        : r.pick(HOSTILE_VALUES),
    }),
    'completion/complete': () => ({
      ref: r.chance(0.5)
        ? { type: 'ref/prompt', name: r.pick(PROMPTS) }
        : { type: r.chance(0.9) ? 'ref/resource' : 'ref/x', uri: fill(r.pick(URIS)) },
      argument: { name: r.pick(['category', 'tags', 'topic_id', 'slug', 'x', '']), value: text() },
    }),
  };
  const method = r.pick(Object.keys(byMethod));
  // Now and then the parameters of another method, or none that fit at all.
  const params = r.chance(0.9)
    ? byMethod[method]!()
    : r.chance(0.5)
      ? byMethod[r.pick(Object.keys(byMethod))]!()
      : r.pick(HOSTILE_VALUES);
  return { jsonrpc: '2.0', id: id(r, 0.03), method, params };
}

function envelope(r: Rng): unknown {
  const m: Record<string, unknown> = {};
  if (r.chance(0.9)) m.jsonrpc = r.chance(0.9) ? '2.0' : r.pick(['1.0', 2, null, '']);
  if (r.chance(0.85)) m.id = id(r, 0.3);
  if (r.chance(0.95)) m.method = r.chance(0.9) ? r.pick(METHODS) : r.pick(HOSTILE_VALUES);
  if (r.chance(0.7)) {
    m.params = r.pick([
      () => ({
        protocolVersion: r.pick(VERSIONS),
        capabilities: valueFor(
          {
            type: 'object',
            properties: { roots: { type: 'object' }, sampling: { type: 'object' } },
          },
          r,
        ),
        clientInfo: { name: r.pick(HOSTILE_STRINGS), version: '1' },
      }),
      () => ({ level: r.pick(['debug', 'error', 'nope', '']) }),
      () => ({ requestId: id(r), reason: r.pick(HOSTILE_STRINGS) }),
      () => ({ progressToken: id(r), progress: r.int(100), total: r.pick([100, -1, 1e308]) }),
      () => ({
        _meta: {
          progressToken: id(r),
          'io.modelcontextprotocol/protocolVersion': r.pick(VERSIONS),
        },
      }),
      () => r.pick(HOSTILE_VALUES),
    ])();
  }
  return m;
}

/** A web page, /llms or a path-form address of the target's host, with hostile parts. */
function webUrl(r: Rng, mcpUrl: string): string {
  const origin = mcpUrl.replace(/\/api\/mcp$/, '');
  // Every byte percent-encoded (lone surrogates become U+FFFD), or bytes that are not UTF-8 at all.
  const part = () =>
    r.chance(0.1)
      ? '%ff%fe%c0%80'
      : [...Buffer.from(r.pick(HOSTILE_STRINGS))]
          .map((b) => `%${b.toString(16).padStart(2, '0')}`)
          .join('');
  return (
    origin +
    r.pick([
      () => `/t/${part()}`,
      () => `/t/verifying-the-hamlet-signature-header?cursor=${part()}`,
      () => `/?cursor=${part()}`,
      () => `/llms?section=${part()}`,
      () => `/c/${part()}/`,
      () => `/c/acme/t/${part()}`,
      () => `/c/${part()}/api/mcp`,
      () => `/${part()}`,
    ])()
  );
}

function rawBody(r: Rng): string {
  return r.pick([
    () => '',
    () => '{',
    () => '{"jsonrpc":"2.0","id":1,"method":"ping"',
    () => '[]',
    () => '[[]]',
    () => 'null',
    () => '"ping"',
    () => '{"jsonrpc":"2.0","id":1,"method":"ping"}'.repeat(2),
    () => `${'['.repeat(200)}${']'.repeat(200)}`,
    () =>
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`,
    () => '\u0000\u0001\u0002',
    () => '{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{"admin":true}}',
    () => Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString('latin1'),
  ])();
}
