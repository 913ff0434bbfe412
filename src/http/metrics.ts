// Prometheus metrics of one Hamlet process (prom-client, its own registry; every name is documented
// in docs/metrics.md): requests and latency per face and operation, MCP requests per method and
// tool, tool errors by code, rate-limited requests, MCP sessions and open streams, the webhook queue
// and its attempts, the PostgreSQL pool, search latency, and prom-client's process metrics (event-loop
// lag among them). Off unless HAMLET_METRICS_TOKEN or HAMLET_METRICS_PORT is set: then every hook
// is a no-op. The hot path pays a map lookup per observation: label children are made once per
// combination (at most MAX_SERIES per metric; further combinations are counted as "other").
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type Face = 'mcp' | 'rest' | 'web' | 'oauth' | 'health' | 'metrics';

/** What the gauges read at each scrape (set once the parts exist). */
export type MetricSources = {
  /** MCP sessions in the store (every instance's, with a shared database). */
  sessions?: () => Promise<number>;
  /** Event streams this instance holds open (GET streams and listen streams). */
  openStreams?: () => number;
  /** Webhook deliveries waiting to be sent (all instances'). */
  webhookQueue?: () => Promise<number>;
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

/** Children of one metric by label values, made once each; beyond MAX_SERIES, one "other" child. */
function children<C>(labels: (...values: string[]) => C, arity: number) {
  const made = new Map<string, C>();
  let other: C | undefined;
  return (a: string, b = '', c = ''): C => {
    const key = arity === 1 ? a : arity === 2 ? `${a}\u0000${b}` : `${a}\u0000${b}\u0000${c}`;
    let child = made.get(key);
    if (child) return child;
    if (made.size >= MAX_SERIES)
      return (other ??= labels(...Array.from({ length: arity }, () => 'other')));
    child = labels(...[a, b, c].slice(0, arity));
    made.set(key, child);
    return child;
  };
}

export function createMetrics(enabled: boolean): Metrics {
  if (!enabled) return OFF;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({
    name: 'hamlet_http_requests_total',
    help: 'HTTP requests answered, by face, operation and HTTP status.',
    labelNames: ['face', 'operation', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'hamlet_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (an event stream: until it opened), by face and operation.',
    labelNames: ['face', 'operation'],
    buckets: SECONDS,
    registers,
  });
  const mcpRequests = new Counter({
    name: 'hamlet_mcp_requests_total',
    help: 'JSON-RPC requests answered over MCP, by method, tool (tools/call) and status (ok, a tool error code, or a JSON-RPC error code).',
    labelNames: ['method', 'tool', 'status'],
    registers,
  });
  const mcpLatency = new Histogram({
    name: 'hamlet_mcp_request_duration_seconds',
    help: 'Time from the HTTP request to the answer of each JSON-RPC request, by method and tool.',
    labelNames: ['method', 'tool'],
    buckets: SECONDS,
    registers,
  });
  const toolErrors = new Counter({
    name: 'hamlet_mcp_tool_errors_total',
    help: 'MCP tool calls that answered an error, by tool and code.',
    labelNames: ['tool', 'code'],
    registers,
  });
  const limited = new Counter({
    name: 'hamlet_rate_limited_total',
    help: 'Requests refused by a rate limit (per key or per address), by face.',
    labelNames: ['face'],
    registers,
  });
  const attempts = new Counter({
    name: 'hamlet_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome: delivered, retrying (failed, retried later) or failed (given up).',
    labelNames: ['outcome'],
    registers,
  });
  const searchLatency = new Histogram({
    name: 'hamlet_search_duration_seconds',
    help: 'Time to answer a search, by mode (lexical, semantic, hybrid).',
    labelNames: ['mode'],
    buckets: SECONDS,
    registers,
  });
  const sources: MetricSources = {};
  const read = async (g: Gauge, value: (() => Promise<number>) | undefined) => {
    if (!value) return;
    // A database that does not answer leaves the last value (the scrape itself still answers).
    await value().then(
      (n) => g.set(n),
      () => undefined,
    );
  };
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

  const requestOf = children((...v) => requests.labels(...v), 3);
  const latencyOf = children((...v) => latency.labels(...v), 2);
  const mcpOf = children((...v) => mcpRequests.labels(...v), 3);
  const mcpLatencyOf = children((...v) => mcpLatency.labels(...v), 2);
  const toolErrorOf = children((...v) => toolErrors.labels(...v), 2);
  const limitedOf = children((...v) => limited.labels(...v), 1);
  const attemptOf = children((...v) => attempts.labels(...v), 1);
  const searchOf = children((...v) => searchLatency.labels(...v), 1);
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
