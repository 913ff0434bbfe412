// Which OAuth clients a community accepts: its trust policy ('any' client that identifies itself
// with a metadata document or registers dynamically; metadata documents hosted on allowed
// 'domains'; or only 'registered' clients) and the clients its administrators registered. Dynamic
// registration (RFC 7591) is the fallback for clients without a metadata document; since what
// such a client says about itself cannot be checked, it is open only under the 'any' policy.
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { OAuthClientRecord } from '../../store/oauth.ts';
import type { Actor } from '../actor.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { randomBase62 } from '../identity/secrets.ts';
import { NUL_MESSAGE, nulPath, parse, translateStoreError } from '../validate.ts';
import {
  ClientMetadataFetcher,
  isMetadataClientId,
  type ClientInfo,
  type FetchAsker,
} from './client-metadata.ts';
import { OAuthError } from './errors.ts';
import { redirectUriProblem } from './redirects.ts';

export const TRUST_MODES = ['any', 'domains', 'registered'] as const;
export type TrustMode = (typeof TRUST_MODES)[number];
export type ClientPolicy = { mode: TrustMode; allowedDomains: string[] };

export const DEFAULT_POLICY: ClientPolicy = { mode: 'any', allowedDomains: [] };

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'must be a domain name such as "claude.ai"');
const policySchema = z.object({
  mode: z.enum(TRUST_MODES),
  allowedDomains: z.array(domain).max(50).default([]),
});

const redirectUris = z
  .array(z.string().max(2000))
  .min(1, 'give at least one redirect URI')
  .max(20)
  .superRefine((uris, ctx) => {
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  });
const clientName = z.string().trim().min(1).max(100);

/** RFC 7591 registration request: only what Hamlet uses; the rest is ignored. */
const registrationSchema = z.looseObject({
  redirect_uris: redirectUris,
  client_name: clientName.optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
});

/** `host` is `domain` or one of its subdomains. */
export function hostInDomains(host: string, domains: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/:\d+$/, '');
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}

export class ClientDirectory {
  constructor(
    private readonly store: Store,
    readonly metadata: ClientMetadataFetcher,
    private readonly now: () => Date,
  ) {}

  async policy(community: Community): Promise<ClientPolicy> {
    const stored = await this.store.oauth.getPolicy(community.id);
    if (!stored) return DEFAULT_POLICY;
    return { mode: stored.mode as TrustMode, allowedDomains: stored.allowedDomains };
  }

  /** The policy, for its administrators (everyone else learns it from the server metadata's effects). */
  async policyFor(actor: Actor, community: Community): Promise<ClientPolicy> {
    await requireCommunityAdmin(this.store, actor, community, 'see which apps may connect');
    return this.policy(community);
  }

  async setPolicy(
    actor: Actor,
    community: Community,
    input: { mode: string; allowedDomains?: string[] },
  ): Promise<ClientPolicy> {
    await requireCommunityAdmin(this.store, actor, community, 'set which apps may connect');
    const policy = parse(policySchema, input);
    if (policy.mode === 'domains' && policy.allowedDomains.length === 0) {
      throw new DomainError(
        'invalid_argument',
        'The "domains" policy needs at least one allowed domain (e.g. claude.ai).',
      );
    }
    await this.store.oauth.putPolicy({
      communityId: community.id,
      ...policy,
      updatedAt: this.now().toISOString(),
    });
    return policy;
  }

  /**
   * The client behind `clientId` if this community accepts it; OAuthError invalid_client (with what
   * to do) otherwise. A metadata document URL is fetched (its document names the client even when
   * an administrator approved the URL), for `asker` (see ClientMetadataFetcher.get).
   */
  async resolve(community: Community, clientId: string, asker?: FetchAsker): Promise<ClientInfo> {
    if (!clientId) throw new OAuthError('invalid_client', 'The request names no client_id.');
    const [policy, row] = await Promise.all([
      this.policy(community),
      this.store.oauth.getClient(community.id, clientId.slice(0, 2000)),
    ]);
    if (isMetadataClientId(clientId)) {
      const client = await this.metadata.get(clientId, asker);
      const registered = row?.kind === 'registered';
      if (policy.mode === 'registered' && !registered)
        throw notAccepted(community, client.name, 'only apps its administrators registered');
      if (
        policy.mode === 'domains' &&
        !registered &&
        !hostInDomains(client.host ?? '', policy.allowedDomains)
      ) {
        throw notAccepted(
          community,
          client.name,
          `only apps from ${policy.allowedDomains.join(', ')}`,
        );
      }
      return client;
    }
    if (!row)
      throw new OAuthError(
        'invalid_client',
        `No client "${clientId.slice(0, 100)}" is registered with "${community.slug}". Register the app again, or use a client metadata document URL as client_id.`,
      );
    if (row.kind === 'dynamic' && policy.mode !== 'any')
      throw notAccepted(community, row.name, 'no dynamically registered apps');
    return {
      clientId: row.clientId,
      name: row.name,
      redirectUris: row.redirectUris,
      kind: row.kind === 'dynamic' ? 'dynamic' : 'registered',
      host: null,
    };
  }

  /** RFC 7591 dynamic registration of a public client; the answer's fields as the endpoint returns them. */
  async register(community: Community, body: unknown): Promise<Record<string, unknown>> {
    if ((await this.policy(community)).mode !== 'any') {
      throw new OAuthError(
        'invalid_client_metadata',
        `"${community.slug}" does not accept dynamically registered apps: identify the app with a client metadata document URL, or ask an administrator to register it.`,
        403,
      );
    }
    const nul = nulPath(body);
    if (nul !== undefined)
      throw new OAuthError('invalid_client_metadata', `${nul}: ${NUL_MESSAGE}.`);
    const parsed = registrationSchema.safeParse(body);
    if (!parsed.success) {
      const redirect = parsed.error.issues.some((i) => i.path[0] === 'redirect_uris');
      throw new OAuthError(
        redirect ? 'invalid_redirect_uri' : 'invalid_client_metadata',
        parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      );
    }
    const data = parsed.data;
    if (data.grant_types && !data.grant_types.includes('authorization_code'))
      throw new OAuthError(
        'invalid_client_metadata',
        'grant_types must include "authorization_code".',
      );
    if (data.response_types && !data.response_types.includes('code'))
      throw new OAuthError('invalid_client_metadata', 'response_types must include "code".');
    const record: OAuthClientRecord = {
      communityId: community.id,
      clientId: `hmlt_client_${randomBase62(32)}`,
      kind: 'dynamic',
      name: data.client_name ?? new URL(data.redirect_uris[0]!).host ?? 'An app',
      redirectUris: data.redirect_uris,
      createdAt: this.now().toISOString(),
    };
    await this.store.oauth.addClient(record);
    return {
      client_id: record.clientId,
      client_id_issued_at: Math.floor(Date.parse(record.createdAt) / 1000),
      client_name: record.name,
      redirect_uris: record.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // Hamlet issues no client secrets: public clients with PKCE only.
      token_endpoint_auth_method: 'none',
    };
  }

  /**
   * An administrator registers an app: either approves a metadata document URL (its document still
   * names it; `name` is for the list) or creates a client id with its redirect URIs.
   */
  async addRegistered(
    actor: Actor,
    community: Community,
    input: { clientId?: string; name: string; redirectUris?: string[] },
  ): Promise<OAuthClientRecord> {
    await requireCommunityAdmin(this.store, actor, community, 'register apps');
    const data = parse(
      z.object({
        clientId: z.string().trim().max(2000).optional(),
        name: clientName,
        redirectUris: redirectUris.optional(),
      }),
      input,
    );
    if (data.clientId !== undefined && !isMetadataClientId(data.clientId)) {
      throw new DomainError(
        'invalid_argument',
        "clientId, when given, is the URL of the app's client metadata document (https://…).",
      );
    }
    if (data.clientId === undefined && !data.redirectUris)
      throw new DomainError(
        'invalid_argument',
        "Give the app's redirect URIs, or the URL of its client metadata document.",
      );
    const record: OAuthClientRecord = {
      communityId: community.id,
      clientId: data.clientId ?? `hmlt_client_${randomBase62(32)}`,
      kind: 'registered',
      name: data.name,
      redirectUris: data.redirectUris ?? [],
      createdAt: this.now().toISOString(),
    };
    try {
      await this.store.oauth.addClient(record);
    } catch (err) {
      translateStoreError(
        err,
        `"${record.clientId}" is already registered with "${community.slug}".`,
        '',
      );
    }
    return record;
  }

  async listRegistered(actor: Actor, community: Community): Promise<OAuthClientRecord[]> {
    await requireCommunityAdmin(this.store, actor, community, 'list registered apps');
    return this.store.oauth.listClients(community.id);
  }

  async removeRegistered(actor: Actor, community: Community, clientId: string): Promise<void> {
    await requireCommunityAdmin(this.store, actor, community, 'remove registered apps');
    if (!(await this.store.oauth.removeClient(community.id, clientId))) {
      throw new DomainError(
        'not_found',
        `No app "${clientId}" is registered with "${community.slug}".`,
      );
    }
  }
}

function notAccepted(community: Community, name: string, what: string): OAuthError {
  return new OAuthError(
    'invalid_client',
    `"${community.slug}" accepts ${what}, and ${name} is not one of them. Ask an administrator of "${community.slug}" to allow it.`,
  );
}
