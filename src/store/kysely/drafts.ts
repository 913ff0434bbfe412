// A community's drafts: one row per (person, place), replaced on save. Every query carries the
// community's id; a malformed person id matches nothing.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { Draft, DraftDatabase, DraftPlace, DraftRepository } from '../drafts.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';

type Db = Kysely<DraftDatabase>;
export const draftDb = (db: Kysely<Database>): Db => db as unknown as Db;

export class KyselyDrafts implements DraftRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async get(personId: string, place: DraftPlace): Promise<Draft | undefined> {
    if (!isUuid(personId)) return undefined;
    const row = await this.db
      .selectFrom('drafts')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('place', '=', place)
      .executeTakeFirst();
    return row
      ? {
          personId: row.person_id,
          place: row.place as DraftPlace,
          title: row.title,
          body: row.body,
          updatedAt: toIso(row.updated_at),
        }
      : undefined;
  }

  async save(
    personId: string,
    place: DraftPlace,
    text: { title: string; body: string },
  ): Promise<Draft> {
    const updatedAt = nowIso();
    await this.db
      .insertInto('drafts')
      .values({
        community_id: this.communityId,
        person_id: personId,
        place,
        title: text.title,
        body: text.body,
        updated_at: updatedAt,
      })
      .onConflict((oc) =>
        oc
          .columns(['community_id', 'person_id', 'place'])
          .doUpdateSet({ title: text.title, body: text.body, updated_at: updatedAt }),
      )
      .execute();
    return { personId, place, title: text.title, body: text.body, updatedAt };
  }

  async discard(personId: string, place: DraftPlace): Promise<boolean> {
    if (!isUuid(personId)) return false;
    const result = await this.db
      .deleteFrom('drafts')
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('place', '=', place)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
