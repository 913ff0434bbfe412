// The mail importer's book-keeping for one community: imported messages and senders, by key.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { ImportRepository } from '../repositories.ts';
import type { ImportedMessage } from '../types.ts';
import { nowIso, toIso } from '../time.ts';
import { uniquely } from '../errors.ts';

// SQLite caps bound parameters per statement; chunking keeps `in (…)` lists well below it.
const CHUNK = 500;

export class KyselyImports implements ImportRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly communityId: string,
  ) {}

  async findMessage(messageKey: string): Promise<ImportedMessage | undefined> {
    return (await this.findMessages([messageKey]))[0];
  }

  async findMessages(keys: string[]): Promise<ImportedMessage[]> {
    const out: ImportedMessage[] = [];
    for (let i = 0; i < keys.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('import_messages')
        .selectAll()
        .where('community_id', '=', this.communityId)
        .where('message_key', 'in', keys.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) {
        out.push({
          messageKey: r.message_key,
          topicId: r.topic_id,
          postId: r.post_id,
          createdAt: toIso(r.created_at),
        });
      }
    }
    return out;
  }

  async recordMessage(input: {
    messageKey: string;
    topicId: string;
    postId: string;
  }): Promise<void> {
    await uniquely('imported message', () =>
      this.db
        .insertInto('import_messages')
        .values({
          community_id: this.communityId,
          message_key: input.messageKey,
          topic_id: input.topicId,
          post_id: input.postId,
          created_at: nowIso(),
        })
        .execute(),
    );
  }

  async countMessages(): Promise<number> {
    const row = await this.db
      .selectFrom('import_messages')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('community_id', '=', this.communityId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async findPerson(identityHash: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('import_people')
      .select('person_id')
      .where('community_id', '=', this.communityId)
      .where('identity_hash', '=', identityHash)
      .executeTakeFirst();
    return row?.person_id;
  }

  async recordPerson(identityHash: string, personId: string): Promise<void> {
    await this.db
      .insertInto('import_people')
      .values({ community_id: this.communityId, identity_hash: identityHash, person_id: personId })
      .execute();
  }
}
