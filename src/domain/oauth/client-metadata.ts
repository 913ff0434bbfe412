// Client ID Metadata Documents: a client identifies itself with the URL of a JSON document about
// itself (name, redirect URIs). Hamlet fetches it under the SSRF guard, checks that it names itself
// by exactly that URL and that it describes a public client, and keeps it for as long as its
// Cache-Control allows (within bounds). Fetches are made for a signed-in person only (the consent
// page looks the client up after sign-in) and are rate-limited per person and per address: a
// document not in the cache costs one of FETCH_LIMITS' budgets, a cached one nothing.
import { z } from 'zod';
import { OAuthError } from './errors.ts';
import { redirectUriProblem } from './redirects.ts';
import { guardedRequest, RequestRefused } from '../../outbound/guarded-request.ts';
import { RateLimitedError, TokenBucketLimiter } from '../identity/rate-limit.ts';

/** What the consent page and the token endpoint need to know about a client. */
export type ClientInfo = {
  clientId: string;
  name: string;
  redirectUris: string[];
  /** metadata: a Client ID Metadata Document; registered: by an administrator; dynamic: RFC 7591. */
  kind: 'metadata' | 'registered' | 'dynamic';
  /** The host the client's identity is tied to (its metadata document's), shown on the consent page. */
  host: string | null;
};

export const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const MIN_CACHE_MS = 60_000;
const DEFAULT_CACHE_MS = 10 * 60_000;
const MAX_CACHE_MS = 24 * 60 * 60_000;
const MAX_CACHED = 500;
/** Documents fetched (not found in the cache) a minute, per person and per client address. */
export const FETCH_LIMITS = { perPerson: 10, perAddress: 30 } as const;

/** Who a document is fetched for: the signed-in person on the consent page, and their address. */
export type FetchAsker = { personId: string; ip: string };

const documentSchema = z.looseObject({
  client_id: z.string(),
  client_name: z
    .string()
    .trim()
    .min(1, 'client_name is empty')
    .max(100, 'client_name is longer than 100 characters'),
  redirect_uris: z
    .array(z.string().max(2000))
    .min(1, 'redirect_uris is empty')
    .max(20, 'more than 20 redirect_uris'),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().optional(),
});

/** Looks like a Client ID Metadata Document URL (the other client ids are ones Hamlet issued). */
export function isMetadataClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** Why `clientId` cannot be a metadata document URL, or undefined. `http:` only where private clients are allowed. */
export function clientIdUrlProblem(clientId: string, allowHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:'))
    return 'it must be an https URL';
  if (url.pathname === '/' || url.pathname === '')
    return 'it must have a path (the document, not the site)';
  if (clientId.includes('#')) return 'it must not have a fragment';
  if (url.username || url.password) return 'it must not carry credentials';
  if (/\/\.\.?(\/|$|\?)/.test(clientId.replace(/^https?:\/\/[^/]*/i, '')))
    return 'it must not have "." or ".." path segments';
  return undefined;
}

/** Why a fetched document is not acceptable for `clientId`, or its client. */
export function parseClientDocument(clientId: string, body: unknown): ClientInfo {
  const refuse = (why: string): never => {
    throw new OAuthError(
      'invalid_client',
      `The client metadata document at ${clientId} is not acceptable: ${why}.`,
    );
  };
  const parsed = documentSchema.safeParse(body);
  if (!parsed.success)
    refuse(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'document'}: ${i.message}`).join('; '),
    );
  const doc = parsed.data!;
  if (doc.client_id !== clientId) refuse(`its client_id is "${doc.client_id}", not its own URL`);
  if ('client_secret' in doc || 'client_secret_expires_at' in doc)
    refuse('a metadata document must not carry a client secret');
  if (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== 'none') {
    refuse(
      `token_endpoint_auth_method "${doc.token_endpoint_auth_method}" is not supported; Hamlet takes public clients ("none") with PKCE`,
    );
  }
  if (doc.grant_types && !doc.grant_types.includes('authorization_code'))
    refuse('grant_types does not include "authorization_code"');
  if (doc.response_types && !doc.response_types.includes('code'))
    refuse('response_types does not include "code"');
  for (const uri of doc.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) refuse(`redirect URI ${problem}`);
  }
  return {
    clientId,
    name: doc.client_name,
    redirectUris: doc.redirect_uris,
    kind: 'metadata',
    host: new URL(clientId).host,
  };
}

/** How long a document may be reused: its max-age, within [1 minute, 1 day]; no-store means 1 minute. */
function cacheMs(cacheControl: string | undefined): number {
  if (!cacheControl) return DEFAULT_CACHE_MS;
  if (/no-store|no-cache/i.test(cacheControl)) return MIN_CACHE_MS;
  const m = /max-age=(\d+)/i.exec(cacheControl);
  if (!m) return DEFAULT_CACHE_MS;
  return Math.min(MAX_CACHE_MS, Math.max(MIN_CACHE_MS, Number(m[1]) * 1000));
}

export class ClientMetadataFetcher {
  private readonly cache = new Map<string, { client: ClientInfo; until: number }>();
  /** In this process's memory: it bounds the outbound requests this process makes. */
  private readonly limiter: TokenBucketLimiter;

  constructor(
    private readonly allowPrivate: boolean,
    private readonly now: () => number = Date.now,
    /** Certificate authorities (PEM) trusted beside the system's, for clients served by a private CA. */
    private readonly ca?: string,
  ) {
    this.limiter = new TokenBucketLimiter(() => new Date(this.now()));
  }

  /** Takes one fetch from the asker's budgets; RateLimitedError (with the wait) when one is spent. */
  private admit(asker: FetchAsker): void {
    const budgets = [
      [`person:${asker.personId}`, FETCH_LIMITS.perPerson, 'for one person'],
      [`ip:${asker.ip}`, FETCH_LIMITS.perAddress, 'from one address'],
    ] as const;
    for (const [bucket, perMinute, who] of budgets) {
      const taken = this.limiter.take(bucket, perMinute);
      if (taken.ok) continue;
      const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
      throw new RateLimitedError(
        `Hamlet looks up at most ${perMinute} new apps a minute ${who}. Retry in ${seconds} s.`,
        seconds,
      );
    }
  }

  /**
   * The client a metadata document URL describes (cached); OAuthError invalid_client otherwise. A
   * fetch for `asker` is charged to their budgets first (RateLimitedError when one is spent).
   */
  async get(clientId: string, asker?: FetchAsker): Promise<ClientInfo> {
    const problem = clientIdUrlProblem(clientId, this.allowPrivate);
    if (problem)
      throw new OAuthError(
        'invalid_client',
        `The client_id "${clientId}" is not a usable client metadata document URL: ${problem}.`,
      );
    const hit = this.cache.get(clientId);
    if (hit && hit.until > this.now()) return hit.client;
    if (asker) this.admit(asker);
    let fetched;
    try {
      fetched = await guardedRequest(new URL(clientId), {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'Hamlet (OAuth client metadata)' },
        allowPrivate: this.allowPrivate,
        maxBytes: MAX_DOCUMENT_BYTES,
        overflow: 'refuse',
        timeoutMs: FETCH_TIMEOUT_MS,
        ca: this.ca,
      });
    } catch (err) {
      const why = err instanceof RequestRefused ? err.message : 'the request failed';
      throw new OAuthError(
        'invalid_client',
        `Hamlet could not fetch the client metadata document at ${clientId}: ${why}`,
      );
    }
    if (fetched.status !== 200) {
      throw new OAuthError(
        'invalid_client',
        `Hamlet could not fetch the client metadata document at ${clientId}: it answered HTTP ${fetched.status}.`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(fetched.body.toString('utf8'));
    } catch {
      throw new OAuthError(
        'invalid_client',
        `The client metadata document at ${clientId} is not JSON.`,
      );
    }
    const client = parseClientDocument(clientId, body);
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(clientId, {
      client,
      until: this.now() + cacheMs(fetched.headers['cache-control']),
    });
    return client;
  }

  /** Forgets cached documents (tests; an administrator changing trust). */
  forget(clientId?: string): void {
    if (clientId) this.cache.delete(clientId);
    else this.cache.clear();
  }
}
