// Prometheus metrics of one Hamlet process (prom-client, its own registry; every name is documented
// in docs/metrics.md): requests and latency per face and operation, MCP requests per method and
// tool, tool errors by code, rate-limited requests, MCP sessions and open streams, the webhook queue
// and its attempts, the PostgreSQL pool, search latency, and prom-client's process metrics (event-loop
// lag among them). Off unless HAMLET_METRICS_TOKEN or HAMLET_METRICS_PORT is set: then every hook
// is a no-op. The hot path pays a map lookup and an addition per observation: series are made once
// per label combination (./metric-series.ts; at most MAX_SERIES per metric, further combinations
// are counted as "other").
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { FastCounter, FastHistogram } from './metric-series.ts';

export type Face = 'mcp' | 'rest' | 'web' | 'oauth' | 'health' | 'metrics';

/** What the gauges read at each scrape (set once the parts exist). */
export type MetricSources = {
  /** MCP sessions in the store (every instance's, with a shared database). */
  sessions?: () => Promise<number>;
  /** Event streams this instance holds open (GET streams and listen streams). */
  openStreams?: () => number;
  /** Webhook deliveries waiting to be sent (all instances'). */
  webhookQueue?: () => Promise<number>;
  /** Outbound mails by status (all instances'): pending, sent, failed. */
  mailQueue?: () => Promise<Record<string, number>>;
  /** This instance's PostgreSQL pool. */
  pool?: () => { total: number; idle: number; waiting: number };
};

export type Metrics = {
  /** The registry to expose; undefined when metrics are off. */
  readonly registry: Registry | undefined;
  /** One HTTP request answered by `face` (`operation`: the route, or the JSON-RPC method). */
  request(face: Face, operation: string, status: number, seconds: number): void;
  /** One JSON-RPC request answered: `status` is ok, a tool error's code, or the JSON-RPC error code. */
  mcpRequest(method: string, tool: string, status: string, seconds: number): void;
  /** A request refused by a rate limit. */
  rateLimited(face: Face): void;
  /** One webhook delivery attempt: delivered, failed and retried later, or failed for good. */
  webhookAttempt(outcome: 'delivered' | 'retrying' | 'failed'): void;
  search(mode: string, seconds: number): void;
  /** Sets what the gauges read. */
  observe(sources: MetricSources): void;
};

const MAX_SERIES = 2_000;
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const OFF: Metrics = {
  registry: undefined,
  request: () => undefined,
  mcpRequest: () => undefined,
  rateLimited: () => undefined,
  webhookAttempt: () => undefined,
  search: () => undefined,
  observe: () => undefined,
};

/** The series of one metric by label values, made once each; beyond MAX_SERIES, one "other" series. */
function children<S>(family: { make(values: readonly string[]): S }, arity: number) {
  const made = new Map<string, S>();
  let other: S | undefined;
  return (a: string, b = '', c = ''): S => {
    const key = arity === 1 ? a : arity === 2 ? `${a}\u0000${b}` : `${a}\u0000${b}\u0000${c}`;
    let series = made.get(key);
    if (series) return series;
    if (made.size >= MAX_SERIES)
      return (other ??= family.make(Array.from({ length: arity }, () => 'other')));
    series = family.make([a, b, c].slice(0, arity));
    made.set(key, series);
    return series;
  };
}

export function createMetrics(enabled: boolean): Metrics {
  if (!enabled) return OFF;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = (name: string, help: string, labels: string[]) =>
    new FastCounter(name, help, labels, registry);
  const histogram = (name: string, help: string, labels: string[]) =>
    new FastHistogram(name, help, labels, registry, SECONDS);
  const requests = counter(
    'hamlet_http_requests_total',
    'HTTP requests answered, by face, operation and HTTP status.',
    ['face', 'operation', 'status'],
  );
  const latency = histogram(
    'hamlet_http_request_duration_seconds',
    'Time to answer an HTTP request (an event stream: until it opened), by face and operation.',
    ['face', 'operation'],
  );
  const mcpRequests = counter(
    'hamlet_mcp_requests_total',
    'JSON-RPC requests answered over MCP, by method, tool (tools/call) and status (ok, a tool error code, or a JSON-RPC error code).',
    ['method', 'tool', 'status'],
  );
  const mcpLatency = histogram(
    'hamlet_mcp_request_duration_seconds',
    'Time from the HTTP request to the answer of each JSON-RPC request, by method and tool.',
    ['method', 'tool'],
  );
  const toolErrors = counter(
    'hamlet_mcp_tool_errors_total',
    'MCP tool calls that answered an error, by tool and code.',
    ['tool', 'code'],
  );
  const limited = counter(
    'hamlet_rate_limited_total',
    'Requests refused by a rate limit (per key or per address), by face.',
    ['face'],
  );
  const attempts = counter(
    'hamlet_webhook_attempts_total',
    'Webhook delivery attempts, by outcome: delivered, retrying (failed, retried later) or failed (given up).',
    ['outcome'],
  );
  const searchLatency = histogram(
    'hamlet_search_duration_seconds',
    'Time to answer a search, by mode (lexical, semantic, hybrid).',
    ['mode'],
  );
  const sources: MetricSources = {};
  const read = async (g: Gauge, value: (() => Promise<number>) | undefined) => {
    if (!value) return;
    // A database that does not answer leaves the last value (the scrape itself still answers).
    await value().then(
      (n) => g.set(n),
      () => undefined,
    );
  };
  // The pool is read first: a scrape's own queries (sessions, queues below) are handed their
  // connections a tick after they ask, so read after them the pool would count them as waiting.
  new Gauge({
    name: 'hamlet_pg_pool_connections',
    help: 'PostgreSQL connections of this instance’s pool, by state (in_use, idle).',
    labelNames: ['state'],
    registers,
    collect() {
      const p = sources.pool?.();
      if (!p) return;
      this.set({ state: 'in_use' }, p.total - p.idle);
      this.set({ state: 'idle' }, p.idle);
    },
  });
  new Gauge({
    name: 'hamlet_pg_pool_waiting',
    help: 'Queries waiting for a PostgreSQL connection of this instance’s pool.',
    registers,
    collect() {
      const p = sources.pool?.();
      if (p) this.set(p.waiting);
    },
  });

  new Gauge({
    name: 'hamlet_mcp_sessions',
    help: 'MCP sessions stored (with a shared database: every instance’s).',
    registers,
    async collect() {
      await read(this, sources.sessions);
    },
  });
  new Gauge({
    name: 'hamlet_mcp_open_streams',
    help: 'MCP event streams this instance holds open.',
    registers,
    collect() {
      if (sources.openStreams) this.set(sources.openStreams());
    },
  });
  new Gauge({
    name: 'hamlet_webhook_queue_depth',
    help: 'Webhook deliveries pending (due now or waiting for a retry).',
    registers,
    async collect() {
      await read(this, sources.webhookQueue);
    },
  });
  new Gauge({
    name: 'hamlet_mail_queue',
    help: 'Outbound mails in the outbox, by status (pending, sent, failed).',
    labelNames: ['status'],
    registers,
    async collect() {
      if (!sources.mailQueue) return;
      const counts = await sources.mailQueue().catch(() => undefined);
      if (!counts) return;
      for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
    },
  });
  const requestOf = children(requests, 3);
  const latencyOf = children(latency, 2);
  const mcpOf = children(mcpRequests, 3);
  const mcpLatencyOf = children(mcpLatency, 2);
  const toolErrorOf = children(toolErrors, 2);
  const limitedOf = children(limited, 1);
  const attemptOf = children(attempts, 1);
  const searchOf = children(searchLatency, 1);
  return {
    registry,
    request(face, operation, status, seconds) {
      requestOf(face, operation, statusText(status)).inc();
      latencyOf(face, operation).observe(seconds);
    },
    mcpRequest(method, tool, status, seconds) {
      mcpOf(method, tool, status).inc();
      mcpLatencyOf(method, tool).observe(seconds);
      if (tool && status !== 'ok') toolErrorOf(tool, status).inc();
    },
    rateLimited: (face) => limitedOf(face).inc(),
    webhookAttempt: (outcome) => attemptOf(outcome).inc(),
    search: (mode, seconds) => searchOf(mode).observe(seconds),
    observe: (s) => void Object.assign(sources, s),
  };
}

const STATUS_TEXT: string[] = [];
/** HTTP status as a label value (the texts made once). */
function statusText(status: number): string {
  return (STATUS_TEXT[status] ??= String(status));
}
