// Load generation with autocannon (which ships no types: the slice used here is typed below), and the
// check that a server answers the bench request correctly before anything is measured.
import { createRequire } from 'node:module';
import { ECHO_TEXT, type BenchRequest } from './servers.ts';

type AutocannonOptions = {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  expectBody?: string;
};
type Histogram = {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
  p99_9?: number;
};
export type AutocannonResult = {
  requests: Histogram & { total: number; sent: number };
  latency: Histogram;
  throughput: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  '2xx': number;
};
type Autocannon = (opts: AutocannonOptions) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * Sends the bench request once and checks the answer is the JSON-RPC result of the echo tool.
 * Returns the exact response text: the load run then counts every differing body as a mismatch.
 */
export async function verifyEcho(url: string, request: BenchRequest): Promise<string> {
  const res = await fetch(url, {
    method: request.method ?? 'POST',
    headers: request.headers,
    body: request.body,
  });
  const text = await res.text();
  const problem = (why: string) =>
    new Error(`${url} answered wrongly (${why}): HTTP ${res.status} ${text.slice(0, 300)}`);
  if (res.status !== 200) throw problem('status');
  if (!/^application\/json\b/i.test(res.headers.get('content-type') ?? ''))
    throw problem(`content-type ${res.headers.get('content-type')}`);
  let msg: {
    jsonrpc?: unknown;
    id?: unknown;
    result?: { content?: { type?: unknown; text?: unknown }[]; isError?: unknown };
    error?: unknown;
  };
  try {
    msg = JSON.parse(text);
  } catch {
    throw problem('not JSON');
  }
  if (msg.jsonrpc !== '2.0' || msg.id !== 1 || msg.error !== undefined || !msg.result)
    throw problem('not a JSON-RPC result for id 1');
  const block = msg.result.content?.[0];
  if (msg.result.isError === true || block?.type !== 'text' || block.text !== ECHO_TEXT)
    throw problem('not the echoed text block');
  return text;
}

export type LoadSettings = { connections: number; durationSeconds: number };

export async function load(
  url: string,
  request: BenchRequest,
  settings: LoadSettings,
  expectBody?: string,
): Promise<AutocannonResult> {
  return autocannon({
    url,
    method: request.method ?? 'POST',
    headers: request.headers,
    body: request.body,
    connections: settings.connections,
    duration: settings.durationSeconds,
    expectBody,
  });
}

/** Everything autocannon counted that was not a correct 2xx answer (its `errors` include timeouts). */
export function failures(r: AutocannonResult): number {
  return r.errors + r.non2xx + r.mismatches;
}
