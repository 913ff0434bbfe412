// Agents of a community: created by its admins with scopes (and optionally trusted), and their keys
// (hmlt_live_…): shown once at minting, stored as a hash, listed by prefix, revocable, expiring.
// Each change is a use case of the one write runner (agent-create.ts, agent-access-set.ts,
// agent-key-mint.ts, agent-key-revoke.ts); what they share is ./agent-records.ts.
import type { z } from 'zod';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Agent, Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import { agentAccessSet } from './agent-access-set.ts';
import { agentCreate, type agentCreateContract } from './agent-create.ts';
import { agentKeyMint } from './agent-key-mint.ts';
import { agentKeyRevoke } from './agent-key-revoke.ts';
import {
  agentKeyView,
  agentView,
  findAgent,
  type AgentKeyView,
  type AgentView,
} from './agent-records.ts';
import { systemClock, type Clock } from './auth.ts';

export type { AgentKeyView, AgentView } from './agent-records.ts';

/** "topic:create,post:create" or ["topic:create", …] → list (validated by the services). */
export function splitScopes(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : value.split(',');
  return list.map((s) => s.trim()).filter(Boolean);
}

export class AgentService {
  private readonly writes: {
    create: ReturnType<typeof agentCreate>;
    mint: ReturnType<typeof agentKeyMint>;
    revoke: ReturnType<typeof agentKeyRevoke>;
  };

  constructor(
    private readonly store: Store,
    private readonly runner: WriteRunner,
    clock: Clock = systemClock,
    private readonly logger?: Logger,
  ) {
    this.writes = {
      create: agentCreate(clock),
      mint: agentKeyMint(clock),
      revoke: agentKeyRevoke(clock),
    };
  }

  /** Creates the agent and its first key (returned once, never again). */
  async create(
    actor: Actor,
    community: Community,
    input: z.input<typeof agentCreateContract>,
    options?: RunOptions,
  ): Promise<{ agent: AgentView; key: string; keyRecord: AgentKeyView }> {
    const created = await this.runner.run(this.writes.create, actor, community, input, options);
    this.logger?.info(
      {
        event: 'agent.created',
        community: community.slug,
        agentId: created.agent.id,
        keyPrefix: created.keyRecord.prefix,
      },
      'agent created',
    );
    return {
      agent: created.agent,
      key: created.key,
      keyRecord: agentKeyView(created.keyRecord),
    };
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
    return this.describe(community, await findAgent(this.store, community, ref));
  }

  async setAccess(
    actor: Actor,
    community: Community,
    input: { agent: string; scopes?: string[]; trusted?: boolean },
    options?: RunOptions,
  ): Promise<AgentView> {
    return this.runner.run(agentAccessSet, actor, community, input, options);
  }

  async mintKey(
    actor: Actor,
    community: Community,
    input: { agent: string; expiresInDays?: number },
    options?: RunOptions,
  ): Promise<{ key: string; keyRecord: AgentKeyView }> {
    const minted = await this.runner.run(this.writes.mint, actor, community, input, options);
    this.logger?.info(
      {
        event: 'agent_key.minted',
        community: community.slug,
        agentId: minted.keyRecord.agentId,
        keyPrefix: minted.keyRecord.prefix,
      },
      'agent key minted',
    );
    return { key: minted.key, keyRecord: agentKeyView(minted.keyRecord) };
  }

  async listKeys(
    actor: Actor,
    community: Community,
    input: { agent?: string } = {},
  ): Promise<AgentKeyView[]> {
    await requireCommunityAdmin(this.store, actor, community, 'list agent keys');
    const agent = input.agent ? await findAgent(this.store, community, input.agent) : undefined;
    return (await this.store.community(community.id).access.agents.listKeys(agent?.id)).map(
      agentKeyView,
    );
  }

  /** Revokes by key id or by prefix (refused when a prefix matches several live keys). */
  async revokeKey(
    actor: Actor,
    community: Community,
    input: { key: string },
    options?: RunOptions,
  ): Promise<AgentKeyView> {
    const revoked = await this.runner.run(this.writes.revoke, actor, community, input, options);
    this.logger?.info(
      { event: 'agent_key.revoked', community: community.slug, keyPrefix: revoked.prefix },
      'agent key revoked',
    );
    return agentKeyView(revoked);
  }

  private async describe(community: Community, agent: Agent): Promise<AgentView> {
    const grant = await this.store.community(community.id).access.agents.getGrant(agent.id);
    return agentView(agent, grant);
  }
}
