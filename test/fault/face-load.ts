// A small, paced load on every face of one base URL (an instance, or nginx in front of several),
// recording every answer as a client sees it: MCP tool calls that write (create_topic, each with
// its own idempotency key, retried with the same key until acknowledged, as a careful agent does)
// and that read (list_topics), REST writes (POST /topics with an Idempotency-Key) and reads, and
// web pages. The outage tests then judge the answers (`judge`) and look for every acknowledged
// write in the database (`storedOnce`).

/** One answer: its face, HTTP status, whether it said when to retry, a tool or JSON-RPC code. */
export type Seen = {
  face: string;
  status: number;
  retryAfter: boolean;
  code?: string;
  /** A 503 nginx answered itself (no instance could): Hamlet's answers carry x-request-id. */
  byProxy?: boolean;
};

export type FaceLoad = {
  seen: Seen[];
  /** Titles of the writes acknowledged (a tool result without error, a REST 201). */
  acked: string[];
  stop(): Promise<void>;
};

const TIMEOUT_MS = 15_000;

/** What every answer says at the HTTP level. */
function answered(face: string, res: Response): Seen {
  const seen: Seen = { face, status: res.status, retryAfter: res.headers.has('retry-after') };
  if (res.status === 503 && !res.headers.has('x-request-id')) seen.byProxy = true;
  return seen;
}

/**
 * Starts the loops against `base` (`http://host:port`), community `acme`, with the agent `key`:
 * `writers` MCP writers and one loop per other kind, each paced to at most one request per
 * `everyMs`.
 */
export function startFaceLoad(
  base: string,
  key: string,
  label: string,
  options: { writers?: number; everyMs?: number } = {},
): FaceLoad {
  const { writers = 1, everyMs = 100 } = options;
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  let stopped = false;
  const load: FaceLoad = { seen: [], acked: [], stop: async () => {} };
  const auth = { authorization: `Bearer ${key}` };
  const paced = async (step: () => Promise<void>) => {
    const started = Date.now();
    await step();
    const wait = started + everyMs - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
  const loop = async (face: string, step: (i: number) => Promise<void>) => {
    for (let i = 0; !stopped; i++) {
      await paced(async () =>
        step(i).catch((err: unknown) => {
          // No answer at all (connection failed, nothing within the timeout) is status 0.
          load.seen.push({ face, status: 0, retryAfter: false, code: String(err) });
        }),
      );
    }
  };
  const mcp = async (face: string, id: number, name: string, args: unknown) => {
    const res = await fetch(`${base}/c/acme/api/mcp`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    const seen = answered(face, res);
    let answer: Record<string, any> = {};
    try {
      answer = text ? (JSON.parse(text) as Record<string, any>) : {};
    } catch {
      seen.code = `not JSON: ${text.slice(0, 80)}`;
    }
    const result = answer.result as { isError?: boolean; structuredContent?: any } | undefined;
    let ok = false;
    if (answer.error) {
      seen.code = `rpc ${answer.error.code}`;
      seen.retryAfter &&= typeof answer.error.data?.retryAfterMs === 'number';
    } else if (result?.isError) {
      seen.code = String(result.structuredContent?.code ?? 'tool error without code');
      seen.retryAfter = typeof result.structuredContent?.retry_after_ms === 'number';
    } else if (result) ok = true;
    load.seen.push(seen);
    return ok;
  };
  const mcpWriter = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const title = `${label} mcp write ${w}-${i} is kept once`;
      const args = {
        category: 'support',
        title,
        body: `Body of ${title}.`,
        idempotency_key: `${slug}-mcp-${w}-${i}`,
      };
      // The same write again, with its key, until it is acknowledged (or the load stops).
      for (let acked = false; !acked && !stopped;) {
        await paced(async () => {
          acked = await mcp('mcp write', i, 'create_topic', args).catch((err: unknown) => {
            load.seen.push({ face: 'mcp write', status: 0, retryAfter: false, code: String(err) });
            return false;
          });
        });
        if (acked) load.acked.push(title);
      }
    }
  };
  const get = async (face: string, path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    await res.arrayBuffer();
    load.seen.push(answered(face, res));
  };
  const restWrite = async (i: number) => {
    const title = `${label} rest write ${i} is kept once`;
    const res = await fetch(`${base}/c/acme/api/v1/topics`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        'idempotency-key': `${slug}-rest-${i}`,
      },
      body: JSON.stringify({ category: 'support', title, body: `Body of ${title}.` }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    const problem = res.status >= 400 ? (JSON.parse(text) as { code?: string }) : undefined;
    load.seen.push({ ...answered('rest write', res), code: problem?.code });
    if (res.status === 201 || res.status === 200) load.acked.push(title);
  };
  const running = Promise.all([
    ...Array.from({ length: writers }, async (_, w) => mcpWriter(w)),
    loop('mcp read', async (i) => {
      await mcp('mcp read', i, 'list_topics', { category: 'support', limit: 5 });
    }),
    loop('rest write', restWrite),
    loop('rest read', async () => get('rest read', '/c/acme/api/v1/topics?limit=5', auth)),
    loop('web', async () => get('web', '/c/acme/')),
  ]);
  load.stop = async () => {
    stopped = true;
    await running;
  };
  return load;
}

/** Counts of answers by face, status and code, for a test's diagnostic. */
export function tally(seen: Seen[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of seen) {
    const k = `${s.face} ${s.status}${s.byProxy ? ' by nginx' : ''}${s.code ? ` ${s.code}` : ''}`;
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

/**
 * What an outage may be answered with: 2xx, or a refusal that says when to retry (HTTP 503 with
 * Retry-After, a JSON-RPC error with retryAfterMs, a tool error `unavailable` with
 * retry_after_ms). Returns the answers that were anything else, and how many were refusals.
 */
export function judge(seen: Seen[]): { wrong: Seen[]; refused: number; fiveHundreds: number } {
  const refusal = (s: Seen) =>
    s.status === 503 || s.code === 'unavailable' || s.code?.startsWith('rpc ');
  const wrong = seen.filter((s) => {
    if (refusal(s))
      return (
        !s.retryAfter ||
        (s.code !== undefined && s.code !== 'unavailable' && s.code !== 'rpc -32006')
      );
    return !(s.status >= 200 && s.status < 300) || s.code !== undefined;
  });
  return {
    wrong,
    refused: seen.filter(refusal).length,
    fiveHundreds: seen.filter((s) => s.status >= 500 && s.status !== 503).length,
  };
}
