// Hamlet as an OAuth 2.1 authorization server for MCP hosts (Claude, ChatGPT, …), one per community:
// the parts, built once per process (src/services.ts).
import type { Config } from '../../config/config.ts';
import type { Logger } from '../../log.ts';
import type { Community } from '../../store/types.ts';
import { siteFor, siteOf, type OAuthSite } from './site.ts';
import type { Store } from '../../store/repositories.ts';
import type { AuditService } from '../identity/audit.ts';
import type { AuthService } from '../identity/auth.ts';
import { AuthorizationFlow } from './authorize.ts';
import { ClientMetadataFetcher } from './client-metadata.ts';
import { ClientDirectory } from './clients.ts';
import { Connections } from './connections.ts';
import { SigningKeys } from './keys.ts';
import { TokenService, type TokenLifetimes } from './tokens.ts';

export type OAuthOptions = TokenLifetimes & {
  /** Fetch client metadata documents from loopback and private addresses too (development, tests). */
  allowPrivateClients: boolean;
  /** Certificate authorities (PEM) trusted beside the system's when fetching them over https. */
  clientCa?: string;
};

export class OAuthService {
  readonly keys: SigningKeys;
  readonly clients: ClientDirectory;
  readonly authorization: AuthorizationFlow;
  readonly tokens: TokenService;
  readonly connections: Connections;
  private readonly store: Store;

  constructor(
    store: Store,
    auth: AuthService,
    audit: AuditService,
    options: OAuthOptions,
    /** Where communities are (public scheme, base domain, port): the issuer and resource URLs. */
    private readonly urls: Pick<Config, 'publicScheme' | 'baseDomain' | 'port'>,
    now: () => Date,
    logger?: Logger,
  ) {
    this.store = store;
    this.keys = new SigningKeys(store, now, options.accessTokenSeconds);
    const fetcher = new ClientMetadataFetcher(
      options.allowPrivateClients,
      () => now().getTime(),
      options.clientCa,
    );
    this.clients = new ClientDirectory(store, fetcher, now);
    this.tokens = new TokenService(store, this.keys, auth, audit, options, now, logger);
    this.authorization = new AuthorizationFlow(store, this.clients, audit, now);
    this.connections = new Connections(store, this.tokens);
  }

  /** The site a request's host (and slug, in the path form on the apex) names; `pathForm`: reached by path. */
  async siteFor(
    host: string | undefined,
    pathSlug?: string,
    pathForm = false,
  ): Promise<OAuthSite | undefined> {
    return siteFor(this.store, this.urls, host, pathSlug, pathForm);
  }

  /** A community's site as a request reached it (on its host, a custom domain, or the path form). */
  siteOf(community: Community, reached: { pathForm: boolean; host?: string }): OAuthSite {
    return siteOf(this.urls, community, reached);
  }
}
