// Agents of one community (name and id; their scopes and keys are in ./agent-access.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { AgentRepository } from '../repositories.ts';
import type { Agent } from '../types.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso } from '../time.ts';
import { uniquely } from '../errors.ts';
import { agentFromRow } from './rows.ts';

export class KyselyAgents implements AgentRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly communityId: string,
  ) {}

  async create(input: { name: string }): Promise<Agent> {
    const row = {
      id: newId(),
      community_id: this.communityId,
      name: input.name,
      created_at: nowIso(),
    };
    await uniquely('agent', () => this.db.insertInto('agents').values(row).execute());
    return agentFromRow(row);
  }

  async getById(id: string): Promise<Agent | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('agents')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && agentFromRow(row);
  }

  async list(): Promise<Agent[]> {
    const rows = await this.db
      .selectFrom('agents')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .orderBy('name')
      .orderBy('id')
      .execute();
    return rows.map(agentFromRow);
  }

  async getByName(name: string): Promise<Agent | undefined> {
    const row = await this.db
      .selectFrom('agents')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && agentFromRow(row);
  }
}
