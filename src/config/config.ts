// Reads Hamlet's settings from the environment into a parsed Config; the server and its services
// receive that Config, never process.env (the CLI hands its child processes the environment as is).
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { settingProblems } from './required.ts';
import { standbysNeedPostgres, standbyUrls } from './pg-urls.ts';
import { trustedProxiesSetting } from './trusted-proxies.ts';

/** A 0/1 switch, as a boolean. */
const zeroOrOne = (byDefault: '0' | '1') =>
  z
    .enum(['0', '1'])
    .default(byDefault)
    .transform((v) => v === '1');

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    HOST: z.string().default('::'),
    HAMLET_BASE_DOMAIN: z
      .string()
      .regex(
        /^[a-z0-9.-]+$/i,
        'HAMLET_BASE_DOMAIN must be a bare host name such as "localhost" or "hamlet.so"',
      )
      .optional(),
    DATABASE_URL: z
      .string()
      .refine((v) => v.startsWith('sqlite:') || /^postgres(ql)?:\/\//.test(v), {
        message: 'DATABASE_URL must be "sqlite:<path>" or "postgres://…"',
      })
      .default('sqlite:./data/hamlet.db'),
    HAMLET_TRUST_PROXY: zeroOrOne('0'),
    HAMLET_TRUSTED_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
    HAMLET_TRUSTED_PROXIES: trustedProxiesSetting,
    HAMLET_PG_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
    HAMLET_PG_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
    HAMLET_DATABASE_REPLICA_URL: standbyUrls.optional(),
    HAMLET_DATABASE_REPLICA_MAX_LAG_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(3_000),
    HAMLET_SQLITE_SYNCHRONOUS: z
      .string()
      .toUpperCase()
      .pipe(z.enum(['OFF', 'NORMAL', 'FULL', 'EXTRA']))
      .default('NORMAL'),
    HAMLET_PUBLIC_SCHEME: z.enum(['http', 'https']).optional(),
    HAMLET_PUBLIC_ORIGIN: z
      .string()
      .transform((v, ctx) => {
        const origin = parseOrigin(v);
        if (!origin)
          ctx.addIssue({
            code: 'custom',
            message:
              'HAMLET_PUBLIC_ORIGIN must be the origin people and clients reach the apex at, scheme and host (and a port if not the default), e.g. "https://forum.example.com"',
          });
        return origin ?? z.NEVER;
      })
      .optional(),
    LOG_LEVEL: z
      .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
      .default('info'),
    HAMLET_MCP_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_000_000),
    HAMLET_MCP_MAX_BATCH: z.coerce.number().int().positive().default(100),
    HAMLET_SESSION_IDLE_SECONDS: z.coerce.number().int().positive().default(1800),
    HAMLET_MCP_SESSIONS_PER_ADDRESS: z.coerce.number().int().positive().default(100),
    HAMLET_MCP_STREAMS_PER_ADDRESS: z.coerce.number().int().positive().default(32),
    HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: z.coerce.number().int().positive().default(120),
    HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: z.coerce.number().int().positive().default(300),
    HAMLET_OAUTH_ACCESS_TOKEN_SECONDS: z.coerce.number().int().min(30).max(86_400).default(600),
    HAMLET_OAUTH_REFRESH_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    HAMLET_OAUTH_ALLOW_PRIVATE_CLIENTS: zeroOrOne('0'),
    HAMLET_OAUTH_CLIENT_CA_FILE: z.string().min(1).optional(),
    HAMLET_REST_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_000_000),
    HAMLET_UPLOADS_DIR: z.string().min(1).optional(),
    HAMLET_UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(8 * 1024 * 1024),
    HAMLET_UPLOAD_QUOTA_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(1024 * 1024 * 1024),
    HAMLET_WEBHOOK_ALLOW_PRIVATE: zeroOrOne('0'),
    HAMLET_WEBHOOK_SECRET_KEY: z
      .string()
      .min(32, 'HAMLET_WEBHOOK_SECRET_KEY must be at least 32 characters')
      .optional(),
    HAMLET_WEBHOOK_DISPATCH: zeroOrOne('1'),
    HAMLET_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    HAMLET_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(60_000),
    HAMLET_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(13),
    HAMLET_WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    HAMLET_IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().int().min(1).max(8760).default(24),
    HAMLET_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).optional(),
    HAMLET_RATE_LIMIT_SIGNUPS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(10),
    HAMLET_SIGNUP: z.enum(['open', 'closed']).default('open'),
    HAMLET_COMMUNITY_CREATION: zeroOrOne('0'),
    HAMLET_SMTP_URL: z
      .string()
      .refine((v) => v === 'log:' || /^smtps?:\/\/[^/]/.test(v), {
        message:
          'HAMLET_SMTP_URL must be smtp://host:port, smtps://host:port (user:password@ allowed) or log:',
      })
      .optional(),
    HAMLET_MAIL_FROM: z
      .string()
      .regex(
        /^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
        'HAMLET_MAIL_FROM must be an address, "hamlet@example.org" or "Hamlet <hamlet@example.org>"',
      )
      .optional(),
    HAMLET_MAIL_DISPATCH: zeroOrOne('1'),
    HAMLET_MAIL_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
    HAMLET_MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).default(60_000),
    HAMLET_MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(10),
    HAMLET_SEND_STOP_WAIT_MS: z.coerce.number().int().min(0).max(20_000).default(5_000),
    HAMLET_EMBEDDINGS_URL: z
      .string()
      .url(
        'HAMLET_EMBEDDINGS_URL must be the base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1',
      )
      .optional(),
    HAMLET_EMBEDDINGS_MODEL: z.string().min(1).optional(),
    HAMLET_EMBEDDINGS_KEY: z.string().min(1).optional(),
    HAMLET_EMBEDDINGS_BATCH: z.coerce.number().int().min(1).max(512).default(32),
    HAMLET_METRICS_TOKEN: z
      .string()
      .min(16, 'HAMLET_METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 24)')
      .regex(/^\S+$/, 'HAMLET_METRICS_TOKEN must not contain spaces')
      .optional(),
    HAMLET_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  })
  .refine(
    (e) =>
      !e.HAMLET_PUBLIC_ORIGIN ||
      !e.HAMLET_BASE_DOMAIN ||
      e.HAMLET_PUBLIC_ORIGIN.host === e.HAMLET_BASE_DOMAIN.toLowerCase(),
    {
      message:
        "HAMLET_BASE_DOMAIN must be HAMLET_PUBLIC_ORIGIN's host (communities are <slug>.<that host>): set one of them, or both alike",
      path: ['HAMLET_BASE_DOMAIN'],
    },
  )
  .refine(
    (e) =>
      !e.HAMLET_PUBLIC_ORIGIN ||
      !e.HAMLET_PUBLIC_SCHEME ||
      e.HAMLET_PUBLIC_ORIGIN.scheme === e.HAMLET_PUBLIC_SCHEME,
    {
      message:
        "HAMLET_PUBLIC_SCHEME must be HAMLET_PUBLIC_ORIGIN's scheme: leave it unset (the origin's scheme is taken)",
      path: ['HAMLET_PUBLIC_SCHEME'],
    },
  )
  .refine(standbysNeedPostgres.check, standbysNeedPostgres.options)
  .refine((e) => !e.HAMLET_EMBEDDINGS_URL || e.HAMLET_EMBEDDINGS_MODEL, {
    message:
      'HAMLET_EMBEDDINGS_MODEL must name the embedding model when HAMLET_EMBEDDINGS_URL is set',
    path: ['HAMLET_EMBEDDINGS_MODEL'],
  });

/** Every variable the configuration reads (the README's table and docs/operations.md list them all). */
export const SETTING_NAMES: readonly string[] = Object.keys(schema.shape);

export type Config = {
  port: number;
  host: string;
  baseDomain: string;
  databaseUrl: string;
  /** Behind a proxy: X-Forwarded-Host is honoured and the client address read from X-Forwarded-For. */
  trustProxy: boolean;
  /** How many proxies in front of Hamlet append to X-Forwarded-For (the client is that many from the right). */
  trustedProxyHops: number;
  /** The peers (addresses, CIDR blocks) whose X-Request-Id is taken: ./trusted-proxies.ts. */
  trustedProxies: readonly string[];
  /**
   * At a stop, how long mail and webhook sends in flight may finish before they are given up and
   * left, uncounted, for another instance.
   */
  sendStopWaitMs: number;
  /** PostgreSQL: connections per instance and server, how long getting one may take before a query fails. */
  postgres: {
    poolSize: number;
    connectTimeoutMs: number;
    /** Hot standbys that take plain reads (one URL each) while at most replicaMaxLagMs behind. */
    replicaUrls: string[];
    replicaMaxLagMs: number;
  };
  /** SQLite's synchronous pragma under WAL: what a commit survives (see the README's Durability). */
  sqliteSynchronous: 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA';
  publicScheme: 'http' | 'https';
  /**
   * Where people and clients reach the apex (`https://forum.example.com`, a port only when not the
   * scheme's default), behind whatever proxy: every URL handed out is built on it (src/domain/urls.ts).
   * Absent: a local run, whose URLs name this machine's address and the port actually served.
   */
  publicOrigin?: string;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  /** sessionsPerAddress / streamsPerAddress: MCP sessions and open event streams one client address may hold. */
  mcp: {
    maxBodyBytes: number;
    maxBatch: number;
    sessionIdleSeconds: number;
    sessionsPerAddress: number;
    streamsPerAddress: number;
  };
  rateLimits: { perKeyPerMinute: number; perIpPerMinute: number; signUpsPerIpPerHour: number };
  /**
   * OAuth for MCP hosts: token lifetimes, and whether client metadata documents may be fetched from
   * loopback/private addresses (and over http): development and tests only.
   */
  oauth: {
    accessTokenSeconds: number;
    refreshTokenDays: number;
    allowPrivateClients: boolean;
    /** PEM file of certificate authorities trusted, beside the system's, for metadata documents over https. */
    clientCaFile?: string;
  };
  /** The web for people: whether anyone may create an account, and a community of their own. */
  people: { signUp: boolean; communityCreation: boolean };
  rest: { maxBodyBytes: number };
  /**
   * Files attached to posts: kept in `dir`, one folder per community; each file at most `maxBytes`,
   * and at most `quotaBytes` over all of a community's files.
   */
  uploads: UploadSettings;
  webhooks: WebhookSettings;
  /**
   * Prometheus metrics: GET /metrics on the main port for `Authorization: Bearer <token>`, and/or on
   * a port of its own without a token; neither set: no metrics are kept.
   */
  metrics: { token?: string; port?: number };
  /** What is deleted once old: idempotency records after hours, audit entries only when set. */
  retention: { idempotencyHours: number; auditDays?: number };
  mail: MailConfig;
  /** An OpenAI-compatible embeddings endpoint for semantic and hybrid search; absent: lexical only. */
  embeddings?: { url: string; model: string; key?: string; batchSize: number };
};

export type UploadSettings = { dir: string; maxBytes: number; quotaBytes: number };

export type WebhookSettings = {
  /** Deliveries to loopback/private/link-local addresses (tests, local development only). */
  allowPrivate: boolean;
  /** Encrypts endpoint secrets at rest; without it a key kept in the database is used. */
  secretKey?: string;
  /** Whether this instance runs a dispatcher (any number may: each delivery is claimed by one). */
  dispatch: boolean;
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  /** Days an event and its ended deliveries and attempts are kept; pending ones are kept until they end. */
  retentionDays: number;
};

export type MailConfig = {
  /** Where mail goes (smtp://, smtps:// or log:); absent: mail is off (nothing is queued). */
  smtpUrl?: string;
  /** The From of every mail; its domain also names Message-IDs. */
  from: string;
  /** Whether this instance sends queued mail (any number may: each mail is claimed by one). */
  dispatch: boolean;
  /** One SMTP conversation's deadline; a claim's lease is twice it and a second. */
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
};

/**
 * Parses the environment (or any record) into a Config; throws with every problem listed, an
 * unknown HAMLET_* variable among them (a misspelling must not leave a setting at its default).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  const problems = [
    ...settingProblems(env, SETTING_NAMES),
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)),
  ];
  if (problems.length || !parsed.success)
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    baseDomain: (e.HAMLET_BASE_DOMAIN ?? e.HAMLET_PUBLIC_ORIGIN?.host ?? 'localhost').toLowerCase(),
    databaseUrl: e.DATABASE_URL,
    trustProxy: e.HAMLET_TRUST_PROXY,
    trustedProxyHops: e.HAMLET_TRUSTED_PROXY_HOPS,
    trustedProxies: e.HAMLET_TRUSTED_PROXIES,
    sendStopWaitMs: e.HAMLET_SEND_STOP_WAIT_MS,
    postgres: {
      poolSize: e.HAMLET_PG_POOL_SIZE,
      connectTimeoutMs: e.HAMLET_PG_CONNECT_TIMEOUT_MS,
      replicaUrls: e.HAMLET_DATABASE_REPLICA_URL ?? [],
      replicaMaxLagMs: e.HAMLET_DATABASE_REPLICA_MAX_LAG_MS,
    },
    sqliteSynchronous: e.HAMLET_SQLITE_SYNCHRONOUS,
    publicScheme: e.HAMLET_PUBLIC_ORIGIN?.scheme ?? e.HAMLET_PUBLIC_SCHEME ?? 'http',
    ...(e.HAMLET_PUBLIC_ORIGIN ? { publicOrigin: e.HAMLET_PUBLIC_ORIGIN.origin } : {}),
    logLevel: e.LOG_LEVEL,
    mcp: {
      maxBodyBytes: e.HAMLET_MCP_MAX_BODY_BYTES,
      maxBatch: e.HAMLET_MCP_MAX_BATCH,
      sessionIdleSeconds: e.HAMLET_SESSION_IDLE_SECONDS,
      sessionsPerAddress: e.HAMLET_MCP_SESSIONS_PER_ADDRESS,
      streamsPerAddress: e.HAMLET_MCP_STREAMS_PER_ADDRESS,
    },
    rateLimits: {
      perKeyPerMinute: e.HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE,
      perIpPerMinute: e.HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE,
      signUpsPerIpPerHour: e.HAMLET_RATE_LIMIT_SIGNUPS_PER_IP_PER_HOUR,
    },
    oauth: {
      accessTokenSeconds: e.HAMLET_OAUTH_ACCESS_TOKEN_SECONDS,
      refreshTokenDays: e.HAMLET_OAUTH_REFRESH_TOKEN_DAYS,
      allowPrivateClients: e.HAMLET_OAUTH_ALLOW_PRIVATE_CLIENTS,
      ...(e.HAMLET_OAUTH_CLIENT_CA_FILE ? { clientCaFile: e.HAMLET_OAUTH_CLIENT_CA_FILE } : {}),
    },
    rest: { maxBodyBytes: e.HAMLET_REST_MAX_BODY_BYTES },
    uploads: {
      dir: e.HAMLET_UPLOADS_DIR ?? defaultUploadsDir(e.DATABASE_URL),
      maxBytes: e.HAMLET_UPLOAD_MAX_BYTES,
      quotaBytes: e.HAMLET_UPLOAD_QUOTA_BYTES,
    },
    webhooks: {
      allowPrivate: e.HAMLET_WEBHOOK_ALLOW_PRIVATE,
      secretKey: e.HAMLET_WEBHOOK_SECRET_KEY,
      dispatch: e.HAMLET_WEBHOOK_DISPATCH,
      timeoutMs: e.HAMLET_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.HAMLET_WEBHOOK_RETRY_BASE_MS,
      maxAttempts: e.HAMLET_WEBHOOK_MAX_ATTEMPTS,
      retentionDays: e.HAMLET_WEBHOOK_RETENTION_DAYS,
    },
    retention: {
      idempotencyHours: e.HAMLET_IDEMPOTENCY_RETENTION_HOURS,
      ...(e.HAMLET_AUDIT_RETENTION_DAYS ? { auditDays: e.HAMLET_AUDIT_RETENTION_DAYS } : {}),
    },
    mail: {
      ...(e.HAMLET_SMTP_URL ? { smtpUrl: e.HAMLET_SMTP_URL } : {}),
      from:
        e.HAMLET_MAIL_FROM ??
        `Hamlet <hamlet@${(e.HAMLET_BASE_DOMAIN ?? e.HAMLET_PUBLIC_ORIGIN?.host.split(':')[0] ?? 'localhost').toLowerCase()}>`,
      dispatch: e.HAMLET_MAIL_DISPATCH,
      timeoutMs: e.HAMLET_MAIL_TIMEOUT_MS,
      retryBaseMs: e.HAMLET_MAIL_RETRY_BASE_MS,
      maxAttempts: e.HAMLET_MAIL_MAX_ATTEMPTS,
    },
    people: { signUp: e.HAMLET_SIGNUP === 'open', communityCreation: e.HAMLET_COMMUNITY_CREATION },
    metrics: { token: e.HAMLET_METRICS_TOKEN, port: e.HAMLET_METRICS_PORT },
    ...(e.HAMLET_EMBEDDINGS_URL && e.HAMLET_EMBEDDINGS_MODEL
      ? {
          embeddings: {
            url: e.HAMLET_EMBEDDINGS_URL,
            model: e.HAMLET_EMBEDDINGS_MODEL,
            key: e.HAMLET_EMBEDDINGS_KEY,
            batchSize: e.HAMLET_EMBEDDINGS_BATCH,
          },
        }
      : {}),
  };
}

/**
 * The data directory's `uploads` folder: beside the SQLite database file (its directory is the data
 * directory), or `./data/uploads` with PostgreSQL.
 */
function defaultUploadsDir(databaseUrl: string): string {
  if (!databaseUrl.startsWith('sqlite:')) return join('data', 'uploads');
  const file = databaseUrl.slice('sqlite:'.length);
  return file === ':memory:' || file === ''
    ? join('data', 'uploads')
    : join(dirname(file), 'uploads');
}

/** `scheme://host[:port]` with nothing after it (a trailing "/" aside), the default port dropped. */
function parseOrigin(
  value: string,
): { origin: string; scheme: 'http' | 'https'; host: string } | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/')
    return undefined;
  if (!/^[a-z0-9.-]+$/.test(url.hostname) || /^[\d.]+$/.test(url.hostname)) return undefined;
  return { origin: url.origin, scheme, host: url.hostname };
}
