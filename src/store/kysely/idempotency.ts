// Idempotency records of one community: (actor, key) → the request's hash and first result.
import type { IdempotencyRecord, IdempotencyRepository } from '../identity.ts';
import { nowIso, toIso } from '../time.ts';
import type { Db } from './identity-rows.ts';
import { uniquely } from '../errors.ts';

export class KyselyIdempotency implements IdempotencyRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async find(actor: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('actor', '=', actor)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return (
      row && {
        requestHash: row.request_hash,
        result: JSON.parse(row.result),
        createdAt: toIso(row.created_at),
      }
    );
  }

  async insert(input: {
    actor: string;
    key: string;
    requestHash: string;
    result: unknown;
  }): Promise<void> {
    await uniquely('idempotency key', () =>
      this.db
        .insertInto('idempotency_records')
        .values({
          community_id: this.communityId,
          actor: input.actor,
          idempotency_key: input.key,
          request_hash: input.requestHash,
          result: JSON.stringify(input.result ?? null),
          created_at: nowIso(),
        })
        .execute(),
    );
  }

  async setResult(actor: string, key: string, result: unknown): Promise<void> {
    await this.db
      .updateTable('idempotency_records')
      .set({ result: JSON.stringify(result ?? null) })
      .where('community_id', '=', this.communityId)
      .where('actor', '=', actor)
      .where('idempotency_key', '=', key)
      .execute();
  }
}
