// A community's member profiles: one row per person, written on the first change. Every query
// carries the community's id; a malformed person id matches nothing.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  MemberProfile,
  MemberProfileDatabase,
  MemberProfileRepository,
} from '../member-profiles.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';

type Db = Kysely<MemberProfileDatabase>;
export const memberProfileDb = (db: Kysely<Database>): Db => db as unknown as Db;

type Row = MemberProfileDatabase['member_profiles'];
const fromRow = (r: Row): MemberProfile => ({
  personId: r.person_id,
  bio: r.bio,
  avatarUploadId: r.avatar_upload_id,
  updatedAt: toIso(r.updated_at),
});

export class KyselyMemberProfiles implements MemberProfileRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async get(personId: string): Promise<MemberProfile | undefined> {
    return (await this.many([personId]))[0];
  }

  async many(personIds: readonly string[]): Promise<MemberProfile[]> {
    const ids = [...new Set(personIds.filter(isUuid))];
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom('member_profiles')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('person_id', 'in', ids)
      .execute();
    return rows.map(fromRow);
  }

  async set(
    personId: string,
    patch: { bio?: string; avatarUploadId?: string | null },
  ): Promise<MemberProfile> {
    const updatedAt = nowIso();
    const changes = {
      ...(patch.bio !== undefined ? { bio: patch.bio } : {}),
      ...(patch.avatarUploadId !== undefined ? { avatar_upload_id: patch.avatarUploadId } : {}),
      updated_at: updatedAt,
    };
    await this.db
      .insertInto('member_profiles')
      .values({
        community_id: this.communityId,
        person_id: personId,
        bio: patch.bio ?? '',
        avatar_upload_id: patch.avatarUploadId ?? null,
        updated_at: updatedAt,
      })
      .onConflict((oc) => oc.columns(['community_id', 'person_id']).doUpdateSet(changes))
      .execute();
    return (await this.get(personId))!;
  }
}
