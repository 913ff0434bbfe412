// Authentication: raw credentials in, an Actor out (or DomainError 'unauthorized' saying exactly
// why and what to do). The transports call these; nothing here knows about HTTP or MCP.
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { AgentActor, PersonActor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { isRole } from '../vocabulary.ts';
import type { ConnectorRequest } from './connector-request.ts';
import { inForce, sanctionMessage } from '../moderation/sanctions.ts';
import { LAST_USE_EVERY_MS, LastUse } from './last-use.ts';
import { keyKind, safeEqual, sha256Hex, wellFormedKey, DISPLAY_PREFIX_LENGTH } from './secrets.ts';

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** `what` names what was asked for, e.g. "This tool" or "Reading this resource". */
export function missingAgentKey(communitySlug: string, what = 'This request'): DomainError {
  return new DomainError(
    'unauthorized',
    `${what} needs an agent key of community "${communitySlug}": send Authorization: Bearer hmlt_live_…. An admin of the community mints one with \`hamlet agent create\`.`,
  );
}

export function missingUserKey(): DomainError {
  return new DomainError(
    'unauthorized',
    'Writing on the network needs a user key: send Authorization: Bearer hmlt_u_…. Mint one for yourself with `hamlet user key mint --email <you>` (or in your account settings).',
  );
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

export class AuthService {
  /** Keys' last-use times, written at most once a minute each (keeps the hot path read-only). */
  readonly lastUse = new LastUse();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock = systemClock,
    private readonly logger?: Logger,
  ) {}

  /** The agent behind a hmlt_live_ key presented on `community`'s host. */
  async authenticateAgentKey(
    communityOrId: Community | string,
    rawKey: string | null | undefined,
    what?: string,
  ): Promise<AgentActor> {
    const community =
      typeof communityOrId === 'string'
        ? await this.store.communities.getById(communityOrId)
        : communityOrId;
    if (!community)
      throw new DomainError('not_found', 'This request did not resolve to a community.');
    const raw = (rawKey ?? '').trim();
    if (!raw) throw missingAgentKey(community.slug, what);
    const refuse = (reason: string, message: string): never => {
      this.logger?.info(
        {
          event: 'auth.refused',
          community: community.slug,
          reason,
          keyPrefix: raw.slice(0, DISPLAY_PREFIX_LENGTH),
        },
        'agent key refused',
      );
      throw new DomainError('unauthorized', message);
    };
    if (keyKind(raw) === 'user') {
      refuse(
        'user_key',
        `This is a user key (hmlt_u_…), which only the network server takes. Community "${community.slug}" needs an agent key (hmlt_live_…); an admin of the community mints one with \`hamlet agent create\`.`,
      );
    }
    if (keyKind(raw) !== 'agent' || !wellFormedKey(raw)) {
      refuse(
        'malformed',
        `This is not a Hamlet agent key: agent keys look like hmlt_live_ followed by at least 32 letters and digits. Send the key of community "${community.slug}" exactly as it was shown when minted.`,
      );
    }
    const hash = sha256Hex(raw);
    const record = await this.store.identity.credentials.findAgentKeyByHash(hash);
    if (!record || !safeEqual(record.keyHash, hash)) {
      refuse(
        'unknown',
        `This agent key is not known to Hamlet. Check that it was copied whole, or ask an admin of "${community.slug}" to mint a new one with \`hamlet key mint\`.`,
      );
    }
    const key = record!;
    if (key.communityId !== community.id) {
      const owner = await this.store.communities.getById(key.communityId);
      refuse(
        'other_community',
        `This agent key belongs to another community${owner ? ` ("${owner.slug}")` : ''}, not "${community.slug}". Use a key minted for "${community.slug}" (an admin runs \`hamlet key mint --community ${community.slug}\`), or call that community's own server.`,
      );
    }
    const now = this.clock();
    if (key.revokedAt) {
      refuse(
        'revoked',
        `This agent key (${key.prefix}…) was revoked on ${day(key.revokedAt)}. Ask an admin of "${community.slug}" for a new key (\`hamlet key mint\`).`,
      );
    }
    if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) {
      refuse(
        'expired',
        `This agent key (${key.prefix}…) expired on ${day(key.expiresAt)}. Ask an admin of "${community.slug}" to mint a new one (\`hamlet key mint\`).`,
      );
    }
    const agent = key.agent;
    const sanction = inForce(key.sanction, now);
    if (!agent)
      refuse(
        'unknown',
        `The agent of this key no longer exists in "${community.slug}". Ask an admin for a key of an existing agent.`,
      );
    // A suspended agent's key is refused with the reason and the end time (forbidden: the key is
    // good, the agent may not act here until then).
    if (sanction?.mode === 'suspended') {
      this.logger?.info(
        {
          event: 'auth.refused',
          community: community.slug,
          reason: 'suspended',
          keyPrefix: key.prefix,
        },
        'agent key refused',
      );
      throw new DomainError('forbidden', sanctionMessage(sanction, community));
    }
    await this.touch(key, now, (id, at, notBefore) =>
      this.store.identity.credentials.touchAgentKey(id, at, notBefore),
    );
    return {
      kind: 'agent',
      agentId: key.agentId,
      communityId: community.id,
      name: agent!.name,
      scopes: agent!.scopes,
      trusted: agent!.trusted,
      keyPrefix: key.prefix,
      keyId: key.id,
      sanction: sanction ?? null,
    };
  }

  /**
   * The person behind an OAuth access token, acting through the app it was issued to. Tokens are
   * taken at the connector URL only, which verifies them (signature, audience, expiry, the grant
   * still live) for each HTTP request before any call runs and hands in what it verified
   * (`verified`); elsewhere they are refused.
   */
  authenticateAccessToken(
    community: Community,
    token: string,
    verified: ConnectorRequest | undefined,
  ): PersonActor {
    if (verified && verified.token === token && verified.communityId === community.id)
      return verified.actor;
    this.logger?.info(
      { event: 'auth.refused', community: community.slug, reason: 'access_token_elsewhere' },
      'access token refused',
    );
    throw new DomainError(
      'unauthorized',
      `OAuth access tokens are taken at this community's connector URL (…/mcp), not here. Connect your app to that URL, or send an agent key (hmlt_live_…) of "${community.slug}".`,
    );
  }

  /** The person behind a hmlt_u_ key (network server writes). */
  async authenticateUserKey(rawKey: string | null | undefined): Promise<PersonActor> {
    const raw = (rawKey ?? '').trim();
    if (!raw) throw missingUserKey();
    const refuse = (reason: string, message: string): never => {
      this.logger?.info(
        { event: 'auth.refused', reason, keyPrefix: raw.slice(0, DISPLAY_PREFIX_LENGTH) },
        'user key refused',
      );
      throw new DomainError('unauthorized', message);
    };
    if (keyKind(raw) === 'agent') {
      refuse(
        'agent_key',
        "This is an agent key (hmlt_live_…), which only its own community's server takes. The network server needs a user key (hmlt_u_…): mint one with `hamlet user key mint --email <you>`.",
      );
    }
    if (keyKind(raw) !== 'user' || !wellFormedKey(raw)) {
      refuse(
        'malformed',
        'This is not a Hamlet user key: user keys look like hmlt_u_ followed by at least 32 letters and digits. Send it exactly as it was shown when minted.',
      );
    }
    const hash = sha256Hex(raw);
    const record = await this.store.identity.credentials.findUserKeyByHash(hash);
    if (!record || !safeEqual(record.keyHash, hash)) {
      refuse(
        'unknown',
        'This user key is not known to Hamlet. Check that it was copied whole, or mint a new one with `hamlet user key mint`.',
      );
    }
    const key = record!;
    const now = this.clock();
    if (key.revokedAt)
      refuse(
        'revoked',
        `This user key (${key.prefix}…) was revoked on ${day(key.revokedAt)}. Mint a new one with \`hamlet user key mint\`.`,
      );
    if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) {
      refuse(
        'expired',
        `This user key (${key.prefix}…) expired on ${day(key.expiresAt)}. Mint a new one with \`hamlet user key mint\`.`,
      );
    }
    const person = await this.store.people.getById(key.personId);
    if (!person) refuse('unknown', 'The account of this user key no longer exists.');
    await this.touch(key, now, (id, at, notBefore) =>
      this.store.identity.credentials.touchUserKey(id, at, notBefore),
    );
    return {
      kind: 'person',
      personId: person!.id,
      displayName: person!.displayName,
      via: 'user_key',
      keyPrefix: key.prefix,
      keyId: key.id,
      roles: await this.rolesOf(person!.id),
    };
  }

  async rolesOf(personId: string): Promise<PersonActor['roles']> {
    const memberships = await this.store.identity.credentials.membershipsOf(personId);
    return Object.fromEntries(
      memberships.flatMap((m) => (isRole(m.role) ? [[m.communityId, m.role]] : [])),
    );
  }

  private async touch(
    key: { id: string; lastUsedAt: string | null },
    now: Date,
    write: (id: string, at: string, notBefore: string) => Promise<void>,
  ): Promise<void> {
    if (!this.lastUse.due(key.id, key.lastUsedAt, now.getTime())) return;
    await write(
      key.id,
      now.toISOString(),
      new Date(now.getTime() - LAST_USE_EVERY_MS).toISOString(),
    ).catch((err: unknown) => {
      this.lastUse.failed(key.id);
      throw err;
    });
  }
}
