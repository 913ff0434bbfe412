// Agents of a community: created by its admins with scopes (and optionally trusted), and their keys
// (hmlt_live_…): shown once at minting, stored as a hash, listed by prefix, revocable, expiring.
import { z } from 'zod';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Agent, Community } from '../../store/types.ts';
import type { AgentKeyRecord } from '../../store/identity.ts';
import { SCOPES } from '../vocabulary.ts';
import { isUuid } from '../../store/ids.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { expiresInDays } from '../fields.ts';
import { parse, translateStoreError } from '../validate.ts';
import { expiryFrom, type KeyView } from './accounts.ts';
import { systemClock, type Clock } from './auth.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { mintKey } from './secrets.ts';

const scopesSchema = z
  .array(z.enum(SCOPES, { error: `each scope must be one of ${SCOPES.join(', ')}` }))
  .max(SCOPES.length);
const createSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100),
  scopes: scopesSchema.default([]),
  trusted: z.boolean().default(false),
  expiresInDays: expiresInDays.optional(),
});

export type AgentView = {
  id: string;
  communityId: string;
  name: string;
  scopes: string[];
  trusted: boolean;
  createdAt: string;
};
export type AgentKeyView = KeyView & { agentId: string };

function agentKeyView(k: AgentKeyRecord): AgentKeyView {
  return {
    id: k.id,
    agentId: k.agentId,
    prefix: k.prefix,
    createdAt: k.createdAt,
    expiresAt: k.expiresAt,
    revokedAt: k.revokedAt,
    lastUsedAt: k.lastUsedAt,
  };
}

/** "topic:create,post:create" or ["topic:create", …] → list (validated by the services). */
export function splitScopes(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : value.split(',');
  return list.map((s) => s.trim()).filter(Boolean);
}

export class AgentService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock = systemClock,
    private readonly logger?: Logger,
  ) {}

  /** Creates the agent and its first key (returned once, never again). */
  async create(
    actor: Actor,
    community: Community,
    input: z.input<typeof createSchema>,
  ): Promise<{ agent: AgentView; key: string; keyRecord: AgentKeyView }> {
    await requireCommunityAdmin(this.store, actor, community, 'create agents');
    const data = parse(createSchema, input);
    const minted = mintKey('agent');
    try {
      const result = await this.store.transaction(async (tx) => {
        const scope = tx.community(community.id);
        const agent = await scope.agents.create({ name: data.name });
        await scope.access.agents.setGrant(agent.id, {
          scopes: data.scopes,
          trusted: data.trusted,
        });
        const key = await scope.access.agents.createKey({
          agentId: agent.id,
          prefix: minted.prefix,
          keyHash: minted.hash,
          expiresAt: expiryFrom(this.clock(), data.expiresInDays),
        });
        return { agent, key };
      });
      this.logger?.info(
        {
          event: 'agent.created',
          community: community.slug,
          agentId: result.agent.id,
          keyPrefix: minted.prefix,
        },
        'agent created',
      );
      return {
        agent: { ...this.view(result.agent), scopes: data.scopes, trusted: data.trusted },
        key: minted.key,
        keyRecord: agentKeyView(result.key),
      };
    } catch (err) {
      translateStoreError(
        err,
        `An agent named "${data.name}" already exists in "${community.slug}". Choose another name, or mint a key for it with \`hamlet key mint\`.`,
        '',
      );
    }
  }

  async list(actor: Actor, community: Community): Promise<AgentView[]> {
    await requireCommunityAdmin(this.store, actor, community, 'see agents');
    return Promise.all(
      (await this.store.community(community.id).agents.list()).map((a) =>
        this.describe(community, a),
      ),
    );
  }

  async get(actor: Actor, community: Community, ref: string): Promise<AgentView> {
    await requireCommunityAdmin(this.store, actor, community, 'see agents');
    return this.describe(community, await this.find(community, ref));
  }

  async setAccess(
    actor: Actor,
    community: Community,
    input: { agent: string; scopes?: string[]; trusted?: boolean },
  ): Promise<AgentView> {
    await requireCommunityAdmin(this.store, actor, community, 'change agents');
    const agent = await this.find(community, input.agent);
    const access = this.store.community(community.id).access.agents;
    const current = (await access.getGrant(agent.id))!;
    const scopes = input.scopes === undefined ? current.scopes : parse(scopesSchema, input.scopes);
    const trusted = input.trusted ?? current.trusted;
    await access.setGrant(agent.id, { scopes, trusted });
    return { ...this.view(agent), scopes, trusted };
  }

  async mintKey(
    actor: Actor,
    community: Community,
    input: { agent: string; expiresInDays?: number },
  ): Promise<{ key: string; keyRecord: AgentKeyView }> {
    await requireCommunityAdmin(this.store, actor, community, 'mint agent keys');
    const days = parse(expiresInDays.optional(), input.expiresInDays);
    const agent = await this.find(community, input.agent);
    const minted = mintKey('agent');
    const record = await this.store.community(community.id).access.agents.createKey({
      agentId: agent.id,
      prefix: minted.prefix,
      keyHash: minted.hash,
      expiresAt: expiryFrom(this.clock(), days),
    });
    this.logger?.info(
      {
        event: 'agent_key.minted',
        community: community.slug,
        agentId: agent.id,
        keyPrefix: minted.prefix,
      },
      'agent key minted',
    );
    return { key: minted.key, keyRecord: agentKeyView(record) };
  }

  async listKeys(
    actor: Actor,
    community: Community,
    input: { agent?: string } = {},
  ): Promise<AgentKeyView[]> {
    await requireCommunityAdmin(this.store, actor, community, 'list agent keys');
    const agent = input.agent ? await this.find(community, input.agent) : undefined;
    return (await this.store.community(community.id).access.agents.listKeys(agent?.id)).map(
      agentKeyView,
    );
  }

  /** Revokes by key id or by prefix (refused when a prefix matches several live keys). */
  async revokeKey(
    actor: Actor,
    community: Community,
    input: { key: string },
  ): Promise<AgentKeyView> {
    await requireCommunityAdmin(this.store, actor, community, 'revoke agent keys');
    const ref = input.key
      .trim()
      .slice(0, input.key.startsWith('hmlt_live_') && !isUuid(input.key) ? 14 : undefined);
    const access = this.store.community(community.id).access.agents;
    const live = (await access.findKeys(ref)).filter((k) => !k.revokedAt);
    if (live.length === 0) {
      throw new DomainError(
        'not_found',
        `No live agent key "${ref}" in "${community.slug}". List the keys (\`hamlet key list --community ${community.slug}\`) to see their prefixes.`,
      );
    }
    if (live.length > 1) {
      throw new DomainError(
        'conflict',
        `The prefix "${ref}" matches ${live.length} live keys in "${community.slug}". Revoke by key id instead (\`hamlet key list\` shows the ids).`,
      );
    }
    const at = this.clock().toISOString();
    await access.revokeKey(live[0]!.id, at);
    this.logger?.info(
      { event: 'agent_key.revoked', community: community.slug, keyPrefix: live[0]!.prefix },
      'agent key revoked',
    );
    return { ...agentKeyView(live[0]!), revokedAt: at };
  }

  private view(agent: Agent): AgentView {
    return {
      id: agent.id,
      communityId: agent.communityId,
      name: agent.name,
      scopes: [],
      trusted: false,
      createdAt: agent.createdAt,
    };
  }

  private async describe(community: Community, agent: Agent): Promise<AgentView> {
    const grant = await this.store.community(community.id).access.agents.getGrant(agent.id);
    return { ...this.view(agent), scopes: grant?.scopes ?? [], trusted: grant?.trusted ?? false };
  }

  private async find(community: Community, ref: string): Promise<Agent> {
    const scope = this.store.community(community.id);
    const agent = isUuid(ref) ? await scope.agents.getById(ref) : await scope.agents.getByName(ref);
    if (!agent)
      throw new DomainError(
        'not_found',
        `No agent "${ref}" in "${community.slug}". Pass the agent id (or name) printed by \`hamlet agent create\`.`,
      );
    return agent;
  }
}
