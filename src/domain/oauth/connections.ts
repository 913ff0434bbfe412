// Connected apps as people and administrators see them: a person's live grants in a community, or
// (administrators) everyone's, each revocable. Revoking ends the grant's refresh tokens at once and
// its access tokens at their next request.
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { GrantRecord } from '../../store/oauth.ts';
import type { Actor } from '../actor.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { isScope, type Scope } from '../vocabulary.ts';
import type { TokenService } from './tokens.ts';

export type Connection = {
  id: string;
  clientId: string;
  clientName: string;
  scopes: Scope[];
  personId: string;
  personName: string;
  connectedAt: string;
  lastUsedAt: string | null;
};

export class Connections {
  constructor(
    private readonly store: Store,
    private readonly tokens: TokenService,
  ) {}

  /** The signed-in person's connected apps in `community`. */
  async mine(actor: Actor, community: Community): Promise<Connection[]> {
    const person = this.personOf(actor);
    return this.present(await this.store.oauth.listLiveGrants(community.id, person));
  }

  /** Every live grant in `community` (administrators). */
  async all(actor: Actor, community: Community): Promise<Connection[]> {
    await requireCommunityAdmin(this.store, actor, community, 'see the apps people connected');
    return this.present(await this.store.oauth.listLiveGrants(community.id));
  }

  /** A person revokes their own grant; an administrator (or the operator) any grant of the community. */
  async revoke(actor: Actor, community: Community, grantId: string): Promise<Connection> {
    const person = actor.kind === 'system' ? undefined : this.personOf(actor);
    const grant = await this.store.oauth.getGrant(grantId);
    const missing = new DomainError(
      'not_found',
      'No such connected app here (it may have been disconnected already). Reload the list.',
    );
    if (!grant || grant.communityId !== community.id || grant.revokedAt) throw missing;
    const own = grant.personId === person;
    if (!own)
      await requireCommunityAdmin(this.store, actor, community, "disconnect other people's apps");
    await this.tokens.revokeGrant(
      grant,
      own ? 'revoked by the person' : 'revoked by an administrator',
      actor,
    );
    return (await this.present([grant]))[0]!;
  }

  private personOf(actor: Actor): string {
    if (actor.kind !== 'person' || actor.client)
      throw new DomainError('unauthorized', 'Sign in on the web to manage connected apps.');
    return actor.personId;
  }

  private async present(grants: GrantRecord[]): Promise<Connection[]> {
    const names = new Map<string, string>();
    for (const id of new Set(grants.map((g) => g.personId)))
      names.set(id, (await this.store.people.getById(id))?.displayName ?? '');
    return grants.map((g) => ({
      id: g.id,
      clientId: g.clientId,
      clientName: g.clientName,
      scopes: g.scopes.filter(isScope),
      personId: g.personId,
      personName: names.get(g.personId) ?? '',
      connectedAt: g.createdAt,
      lastUsedAt: g.lastUsedAt,
    }));
  }
}
