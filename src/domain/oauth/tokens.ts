// The token endpoint's rules and the resource server's check of access tokens.
//  - authorization_code: a code works once, within a minute, for the client and redirect URI it was
//    issued to, with the PKCE verifier of its challenge; a second use revokes the whole grant.
//  - refresh_token: every use rotates the token; presenting a rotated one again means it leaked,
//    so the whole grant (every refresh and access token of it) is revoked.
//  - access tokens are short-lived JWTs bound to the connector URL (audience) and to a grant, which
//    is looked up on every request: revoking the grant stops the next call.
import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { GrantRecord } from '../../store/oauth.ts';
import { systemActor, type Actor, type PersonActor } from '../actor.ts';
import type { AuditService } from '../identity/audit.ts';
import type { AuthService } from '../identity/auth.ts';
import { LAST_USE_EVERY_MS } from '../identity/last-use.ts';
import { randomBase62, safeEqual, sha256Hex } from '../identity/secrets.ts';
import { OAuthError } from './errors.ts';
import type { SigningKeys } from './keys.ts';
import { intersectScopes, parseScopes, scopesForRole } from './scopes.ts';
import { canonicalResource, resourceOf, type OAuthSite } from './site.ts';

export const REFRESH_PREFIX = 'hmlt_rt_';

export type TokenLifetimes = { accessTokenSeconds: number; refreshTokenDays: number };

export type TokenResponse = {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
};

const field = (max: number) => z.string().max(max).optional();
const tokenRequest = z.object({
  grant_type: field(100),
  code: field(200),
  redirect_uri: field(2000),
  code_verifier: field(200),
  client_id: field(2000),
  refresh_token: field(200),
  scope: field(1000),
  resource: field(2000),
});
const revokeRequest = z.object({
  token: field(4000),
  token_type_hint: field(50),
  client_id: field(2000),
});

const invalidGrant = (why: string) => new OAuthError('invalid_grant', why);

function pkceMatches(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  return safeEqual(createHash('sha256').update(verifier, 'ascii').digest('base64url'), challenge);
}

export class TokenService {
  constructor(
    private readonly store: Store,
    private readonly keys: SigningKeys,
    private readonly auth: AuthService,
    private readonly audit: AuditService,
    private readonly lifetimes: TokenLifetimes,
    private readonly now: () => Date,
    private readonly logger?: Logger,
  ) {}

  /** POST /oauth/token with its form fields; OAuthError otherwise. */
  async token(site: OAuthSite, form: unknown): Promise<TokenResponse> {
    const parsed = tokenRequest.safeParse(form);
    if (!parsed.success) throw new OAuthError('invalid_request', 'A parameter is too long.');
    const p = parsed.data;
    if (!p.client_id)
      throw new OAuthError(
        'invalid_client',
        'Send client_id: Hamlet takes public clients, which identify themselves with it.',
        401,
      );
    if (p.resource !== undefined && canonicalResource(p.resource) !== resourceOf(site)) {
      throw new OAuthError(
        'invalid_target',
        `This authorization server issues tokens for ${resourceOf(site)} only.`,
      );
    }
    if (p.grant_type === 'authorization_code') return this.exchangeCode(site, p);
    if (p.grant_type === 'refresh_token') return this.refresh(site, p);
    throw new OAuthError(
      'unsupported_grant_type',
      'Use grant_type authorization_code (with PKCE) or refresh_token.',
    );
  }

  private async exchangeCode(
    site: OAuthSite,
    p: z.infer<typeof tokenRequest>,
  ): Promise<TokenResponse> {
    const code = p.code ? await this.store.oauth.findCode(sha256Hex(p.code)) : undefined;
    const grant = code ? await this.store.oauth.getGrant(code.grantId) : undefined;
    if (
      !code ||
      !grant ||
      grant.communityId !== site.community.id ||
      code.clientId !== p.client_id
    ) {
      throw invalidGrant(
        'This authorization code is not known here. Start the authorization again.',
      );
    }
    const at = this.now().toISOString();
    if (!(await this.store.oauth.useCode(code.codeHash, at))) {
      await this.revokeGrant(grant, 'authorization code used twice');
      throw invalidGrant(
        'This authorization code was already used, so every token issued with it is revoked. Start the authorization again.',
      );
    }
    if (Date.parse(code.expiresAt) <= this.now().getTime())
      throw invalidGrant(
        'This authorization code expired (codes last one minute). Start the authorization again.',
      );
    if (p.redirect_uri !== code.redirectUri)
      throw invalidGrant('redirect_uri must be the one of the authorization request.');
    if (!pkceMatches(p.code_verifier, code.codeChallenge))
      throw invalidGrant(
        'code_verifier does not match the code_challenge of the authorization request.',
      );
    if (grant.revokedAt) throw invalidGrant('This connection was revoked. Connect again.');
    return this.issue(site, grant, code.scopes, code.resource);
  }

  private async refresh(site: OAuthSite, p: z.infer<typeof tokenRequest>): Promise<TokenResponse> {
    const token = p.refresh_token
      ? await this.store.oauth.findRefreshToken(sha256Hex(p.refresh_token))
      : undefined;
    const grant = token ? await this.store.oauth.getGrant(token.grantId) : undefined;
    if (
      !token ||
      !grant ||
      grant.communityId !== site.community.id ||
      grant.clientId !== p.client_id
    ) {
      throw invalidGrant('This refresh token is not known here. Connect again.');
    }
    const replayed = async (): Promise<never> => {
      await this.revokeGrant(grant, 'refresh token used twice');
      throw invalidGrant(
        'This refresh token was already used: it may have leaked, so the connection is revoked. Connect again.',
      );
    };
    if (token.usedAt) await replayed();
    if (token.revokedAt || grant.revokedAt)
      throw invalidGrant('This connection was revoked. Connect again.');
    if (Date.parse(token.expiresAt) <= this.now().getTime())
      throw invalidGrant('This refresh token expired. Connect again.');
    let scopes = intersectScopes(token.scopes, grant.scopes);
    if (p.scope !== undefined) {
      const asked = parseScopes(p.scope);
      if (asked.some((s) => !scopes.includes(s)))
        throw new OAuthError(
          'invalid_scope',
          'A refresh can keep or narrow the scopes, not add any: authorize again to add one.',
        );
      scopes = asked;
    }
    if (!(await this.store.oauth.useRefreshToken(token.id, this.now().toISOString())))
      await replayed();
    return this.issue(site, grant, scopes, token.resource);
  }

  /** A new access token and refresh token for `grant`. */
  private async issue(
    site: OAuthSite,
    grant: GrantRecord,
    scopes: string[],
    resource: string,
  ): Promise<TokenResponse> {
    const now = this.now();
    const refresh = REFRESH_PREFIX + randomBase62(48);
    await this.store.oauth.addRefreshToken({
      id: randomUUID(),
      grantId: grant.id,
      tokenHash: sha256Hex(refresh),
      scopes,
      resource,
      createdAt: now.toISOString(),
      expiresAt: new Date(
        now.getTime() + this.lifetimes.refreshTokenDays * 86_400_000,
      ).toISOString(),
    });
    const scope = scopes.join(' ');
    const access = await this.keys.sign(
      {
        iss: site.issuer,
        aud: resource,
        sub: grant.personId,
        client_id: grant.clientId,
        scope,
        gid: grant.id,
        jti: randomUUID(),
      },
      this.lifetimes.accessTokenSeconds,
    );
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: this.lifetimes.accessTokenSeconds,
      refresh_token: refresh,
      scope,
    };
  }

  /**
   * Whether a token or revocation request carries a credential of `site`'s community: a code, a
   * refresh token or an access token (the `code`, `refresh_token` or `token` field) of one of its
   * grants, used up or not. To a request without one, a private community does not exist.
   */
  async carriesCredential(site: OAuthSite, form: Record<string, string>): Promise<boolean> {
    const grantIds = await Promise.all([
      form.code && form.code.length <= 200
        ? this.store.oauth.findCode(sha256Hex(form.code)).then((c) => c?.grantId)
        : undefined,
      ...[form.refresh_token, form.token]
        .filter((t): t is string => !!t && t.startsWith(REFRESH_PREFIX) && t.length <= 200)
        .map((t) => this.store.oauth.findRefreshToken(sha256Hex(t)).then((r) => r?.grantId)),
      form.token && !form.token.startsWith(REFRESH_PREFIX) && form.token.length <= 4000
        ? this.keys
            .verify(form.token, { issuer: site.issuer, audience: resourceOf(site) })
            .then((claims) => (typeof claims.gid === 'string' ? claims.gid : undefined))
            .catch(() => undefined)
        : undefined,
    ]);
    for (const id of grantIds) {
      if (id && (await this.store.oauth.getGrant(id))?.communityId === site.community.id)
        return true;
    }
    return false;
  }

  /** RFC 7009: revoking either token of a grant ends the grant. Unknown tokens are not an error. */
  async revoke(site: OAuthSite, form: unknown): Promise<void> {
    const parsed = revokeRequest.safeParse(form);
    if (!parsed.success || !parsed.data.token)
      throw new OAuthError('invalid_request', 'Send the token to revoke.');
    const { token, client_id } = parsed.data;
    let grantId: string | undefined;
    if (token.startsWith(REFRESH_PREFIX))
      grantId = (await this.store.oauth.findRefreshToken(sha256Hex(token)))?.grantId;
    else {
      const claims = await this.keys
        .verify(token, { issuer: site.issuer, audience: resourceOf(site) })
        .catch(() => undefined);
      grantId = typeof claims?.gid === 'string' ? claims.gid : undefined;
    }
    const grant = grantId ? await this.store.oauth.getGrant(grantId) : undefined;
    if (grant && grant.communityId === site.community.id && grant.clientId === client_id)
      await this.revokeGrant(grant, 'revoked by the app');
  }

  /**
   * The person an access token presented at the connector URL acts as, through its app, with the
   * token's scopes capped by the grant and by the person's role now. OAuthError invalid_token (401)
   * for anything else: unknown, expired, for another resource, or its grant revoked.
   */
  async authenticate(site: OAuthSite, token: string): Promise<PersonActor> {
    const invalid = (why: string) => new OAuthError('invalid_token', why, 401);
    const claims = await this.keys
      .verify(token, { issuer: site.issuer, audience: resourceOf(site) })
      .catch(() => {
        throw invalid(
          `The access token is invalid, expired, or not for ${resourceOf(site)}. Refresh it or connect again.`,
        );
      });
    const grant =
      typeof claims.gid === 'string' ? await this.store.oauth.getGrant(claims.gid) : undefined;
    if (
      !grant ||
      grant.communityId !== site.community.id ||
      grant.personId !== claims.sub ||
      grant.clientId !== claims.client_id
    ) {
      throw invalid(
        'The access token does not belong to a connection of this community. Connect again.',
      );
    }
    if (grant.revokedAt)
      throw invalid(
        `This connection of ${grant.clientName} was revoked on ${grant.revokedAt.slice(0, 10)}. Connect again.`,
      );
    const person = await this.store.people.getById(grant.personId);
    if (!person) throw invalid('The account of this connection no longer exists.');
    const roles = (await this.auth.rolesOf(person.id)) ?? {};
    const allowed = scopesForRole(roles[site.community.id], site.community);
    if (!roles[site.community.id] && site.community.visibility === 'private') {
      throw invalid(
        `You are no longer a member of "${site.community.name}". Ask an administrator to add you, then connect again.`,
      );
    }
    const now = this.now();
    // The connection's last use, at most once a minute (the keys' LastUse, by grant id).
    if (this.auth.lastUse.due(`oauth:${grant.id}`, grant.lastUsedAt, now.getTime())) {
      await this.store.oauth
        .touchGrant(
          grant.id,
          now.toISOString(),
          new Date(now.getTime() - LAST_USE_EVERY_MS).toISOString(),
        )
        .catch((err: unknown) => {
          this.auth.lastUse.failed(`oauth:${grant.id}`);
          throw err;
        });
    }
    const scopes = intersectScopes(String(claims.scope ?? '').split(' '), grant.scopes, allowed);
    return {
      kind: 'person',
      personId: person.id,
      displayName: person.displayName,
      via: 'oauth',
      keyId: `oauth:${grant.id}`,
      keyPrefix: `oauth:${grant.id.slice(0, 8)}`,
      roles,
      client: { id: grant.clientId, name: grant.clientName, grantId: grant.id, scopes },
    };
  }

  /**
   * Ends a grant: its refresh tokens stop at once, its access tokens at their next request. `by` is
   * who ended it (the system when a replayed code or refresh token did).
   */
  async revokeGrant(
    grant: GrantRecord,
    reason: string,
    by: Actor = systemActor('oauth'),
  ): Promise<boolean> {
    const at = this.now().toISOString();
    const revoked = await this.store.oauth.revokeGrant(grant.id, at, reason);
    await this.store.oauth.revokeRefreshTokensOf(grant.id, at);
    if (revoked) {
      this.logger?.info(
        {
          event: 'oauth.grant_revoked',
          grantId: grant.id,
          communityId: grant.communityId,
          client: grant.clientName,
          reason,
        },
        'OAuth grant revoked',
      );
      await this.audit.record(by, {
        communityId: grant.communityId,
        action: 'oauth.disconnect',
        targets: { grant_id: grant.id, client_id: grant.clientId, reason },
        outcome: 'ok',
      });
    }
    return revoked;
  }
}
