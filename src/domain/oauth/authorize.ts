// The authorization endpoint's rules: checking an authorization request (client, redirect URI,
// PKCE S256, scopes, resource), and the person's decision on the consent page. Until the client
// and its redirect URI are known good, problems are shown to the person and never sent anywhere;
// after that they go back to the client as an error redirect. Every answer carries `iss` (RFC 9207).
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import { UniqueViolation } from '../../store/errors.ts';
import type { PersonActor } from '../actor.ts';
import type { AuditService } from '../identity/audit.ts';
import { roleOf } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { NUL_MESSAGE, nulPath } from '../validate.ts';
import { randomBase62, sha256Hex } from '../identity/secrets.ts';
import type { Scope } from '../vocabulary.ts';
import type { ClientInfo, FetchAsker } from './client-metadata.ts';
import type { ClientDirectory } from './clients.ts';
import { OAuthError } from './errors.ts';
import { redirectUriMatches } from './redirects.ts';
import { intersectScopes, parseScopes, scopesForRole } from './scopes.ts';
import { canonicalResource, resourceOf, type OAuthSite } from './site.ts';
import { newId } from '../../store/ids.ts';

const CODE_TTL_MS = 60_000;
export const CODE_PREFIX = 'hmlt_ac_';

const param = (max: number) => z.string().max(max).optional();
/** The authorization request's parameters (query on GET, form fields on the consent POST). */
export const authorizationParams = z.object({
  response_type: param(50),
  client_id: param(2000),
  redirect_uri: param(2000),
  scope: param(1000),
  state: param(2000),
  code_challenge: param(200),
  code_challenge_method: param(50),
  resource: param(2000),
});
export type AuthorizationParams = z.infer<typeof authorizationParams>;

export type AuthorizationRequest = {
  site: OAuthSite;
  client: ClientInfo;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  /** The Hamlet scopes asked for (unknown values dropped). */
  scopes: Scope[];
  resource: string;
  /** The parameters as received, for the consent form to send back. */
  params: AuthorizationParams;
};

export type Checked =
  | { ok: true; request: AuthorizationRequest }
  /** Shown to the person: the client or its redirect URI cannot be trusted with an answer. */
  | { ok: false; show: string }
  /** Sent back to the client. */
  | { ok: false; redirect: string };

/** `redirectUri` with `params` added to its query (its own query kept). */
export function withQuery(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

export class AuthorizationFlow {
  constructor(
    private readonly store: Store,
    private readonly clients: ClientDirectory,
    private readonly audit: AuditService,
    private readonly now: () => Date,
  ) {}

  /**
   * What is wrong with the request's parameters themselves (too long, the NUL character), without
   * looking anything up: answered to anyone, before they sign in. Undefined when they are well-formed.
   */
  malformed(raw: unknown): string | undefined {
    const nul = nulPath(raw);
    if (nul !== undefined)
      return `This sign-in link is malformed: ${nul} ${NUL_MESSAGE}. Start connecting from the app again.`;
    if (!authorizationParams.safeParse(raw).success)
      return 'This sign-in link is malformed (a parameter is too long). Start connecting from the app again.';
    return undefined;
  }

  /**
   * Checks an authorization request as it arrives (GET) and again when the person decides (POST).
   * `asker` is the signed-in person the consent page is for: a client metadata document not in the
   * cache is fetched on their budget (RateLimitedError when it is spent).
   */
  async check(site: OAuthSite, raw: unknown, asker?: FetchAsker): Promise<Checked> {
    const malformed = this.malformed(raw);
    if (malformed !== undefined) return { ok: false, show: malformed };
    const p = authorizationParams.parse(raw);
    let client: ClientInfo;
    try {
      client = await this.clients.resolve(site.community, p.client_id ?? '', asker);
    } catch (err) {
      if (err instanceof OAuthError) return { ok: false, show: err.description };
      throw err;
    }
    const redirectUri =
      p.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (!redirectUri)
      return {
        ok: false,
        show: `${client.name} did not say where to return (redirect_uri). Start connecting from the app again.`,
      };
    if (redirectUri.includes('#'))
      return {
        ok: false,
        show: `${client.name} asked to return to ${redirectUri}, which has a fragment (#…): a redirect URI never has one. Nothing was sent there.`,
      };
    if (!redirectUriMatches(redirectUri, client.redirectUris)) {
      return {
        ok: false,
        show: `${client.name} asked to return to ${redirectUri}, which is not one of its registered addresses. Nothing was sent there.`,
      };
    }
    const fail = (error: string, description: string): Checked => ({
      ok: false,
      redirect: withQuery(redirectUri, {
        error,
        error_description: description,
        state: p.state,
        iss: site.issuer,
      }),
    });
    if (p.response_type !== 'code')
      return fail('unsupported_response_type', 'Only response_type=code is supported.');
    if (!p.code_challenge)
      return fail(
        'invalid_request',
        'PKCE is required: send code_challenge with code_challenge_method=S256.',
      );
    if (p.code_challenge_method !== 'S256')
      return fail('invalid_request', 'Only the S256 code_challenge_method is supported.');
    if (!/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge))
      return fail(
        'invalid_request',
        'code_challenge must be the base64url SHA-256 of the verifier (43 characters).',
      );
    const resource = p.resource === undefined ? resourceOf(site) : canonicalResource(p.resource);
    if (resource !== resourceOf(site))
      return fail(
        'invalid_target',
        `This authorization server issues tokens for ${resourceOf(site)} only.`,
      );
    return {
      ok: true,
      request: {
        site,
        client,
        redirectUri,
        state: p.state,
        codeChallenge: p.code_challenge,
        scopes: parseScopes(p.scope),
        resource,
        params: p,
      },
    };
  }

  /** The scopes `person` may grant here (what their role lets them do themselves). */
  async grantable(request: AuthorizationRequest, person: PersonActor): Promise<Scope[]> {
    const role = await roleOf(this.store, person, request.site.community);
    const community = request.site.community;
    if (!role && community.visibility === 'private') {
      throw new DomainError(
        'forbidden',
        `You are not a member of "${community.name}", so no app can act for you there. Ask an administrator to add you.`,
      );
    }
    return scopesForRole(role, community);
  }

  /**
   * The person allowed the request with the scopes they left ticked: records the grant (one per
   * person, app and community; connecting again adds what was approved now) and returns the
   * redirect carrying a single-use code.
   */
  async approve(
    request: AuthorizationRequest,
    person: PersonActor,
    chosen: readonly string[],
  ): Promise<string> {
    const approved = intersectScopes(request.scopes, chosen, await this.grantable(request, person));
    const { site, client } = request;
    const at = this.now().toISOString();
    const upsert = async (): Promise<string> => {
      const live = await this.store.oauth.findLiveGrant(
        site.community.id,
        person.personId,
        client.clientId,
      );
      if (live) {
        await this.store.oauth.updateGrant(live.id, {
          scopes: intersectScopes([...live.scopes, ...approved]),
          clientName: client.name,
          updatedAt: at,
        });
        return live.id;
      }
      const g = await this.store.oauth.createGrant({
        id: newId(),
        communityId: site.community.id,
        personId: person.personId,
        clientId: client.clientId,
        clientName: client.name,
        scopes: approved,
        createdAt: at,
        updatedAt: at,
      });
      return g.id;
    };
    // The same person approving twice at once: the second finds the first's grant.
    const grantId = await upsert().catch((err: unknown) => {
      if (err instanceof UniqueViolation) return upsert();
      throw err;
    });
    await this.audit.record(person, {
      communityId: site.community.id,
      action: 'oauth.connect',
      targets: { grant_id: grantId, client_id: client.clientId, scopes: approved.join(' ') },
      outcome: 'ok',
    });
    const code = CODE_PREFIX + randomBase62(40);
    await this.store.oauth.addCode({
      codeHash: sha256Hex(code),
      grantId,
      clientId: client.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes: approved,
      resource: request.resource,
      createdAt: at,
      expiresAt: new Date(this.now().getTime() + CODE_TTL_MS).toISOString(),
    });
    return withQuery(request.redirectUri, { code, state: request.state, iss: site.issuer });
  }

  /** The person said no. */
  deny(request: AuthorizationRequest): string {
    return withQuery(request.redirectUri, {
      error: 'access_denied',
      error_description: 'The person did not allow the connection.',
      state: request.state,
      iss: request.site.issuer,
    });
  }
}
