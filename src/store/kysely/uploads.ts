// A community's upload records: created once, read by id, and summed for the quota. Every query
// carries the community's id; a malformed id matches nothing.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { Dialect } from '../repositories.ts';
import type {
  NewUpload,
  Upload,
  UploadDatabase,
  UploadRepository,
  UploaderKind,
} from '../uploads.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';

type Db = Kysely<UploadDatabase>;
type Row = UploadDatabase['uploads'];
export const uploadDb = (db: Kysely<Database>): Db => db as unknown as Db;

function fromRow(row: Row): Upload {
  return {
    id: row.id,
    uploaderKind: row.uploader_kind as UploaderKind,
    uploaderId: row.uploader_id,
    filename: row.filename,
    contentType: row.content_type,
    byteSize: Number(row.byte_size),
    sha256: row.sha256,
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    createdAt: toIso(row.created_at),
  };
}

export class KyselyUploads implements UploadRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
    private readonly dialect: Dialect,
  ) {}

  async create(u: NewUpload): Promise<Upload> {
    const createdAt = nowIso();
    await this.db
      .insertInto('uploads')
      .values({
        community_id: this.communityId,
        id: u.id,
        uploader_kind: u.uploaderKind,
        uploader_id: u.uploaderId,
        filename: u.filename,
        content_type: u.contentType,
        byte_size: u.byteSize,
        sha256: u.sha256,
        width: u.width,
        height: u.height,
        created_at: createdAt,
      })
      .execute();
    return { ...u, createdAt };
  }

  async get(id: string): Promise<Upload | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('uploads')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async getMany(ids: readonly string[]): Promise<Upload[]> {
    const valid = [...new Set(ids.filter(isUuid))];
    if (!valid.length) return [];
    const rows = await this.db
      .selectFrom('uploads')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('id', 'in', valid)
      .execute();
    return rows.map(fromRow);
  }

  async totalBytes(): Promise<number> {
    // Inside a transaction, the community's row stays locked until it ends: two uploads that each
    // check for room then record themselves take turns, so together they cannot pass the quota.
    // (SQLite's write transactions already take turns: BEGIN IMMEDIATE.)
    if (this.dialect === 'postgres')
      await sql`select id from communities where id = ${this.communityId} for update`.execute(
        this.db,
      );
    const row = await this.db
      .selectFrom('uploads')
      .select((eb) =>
        eb.fn.coalesce(eb.fn.sum<number | string>('byte_size'), eb.lit(0)).as('total'),
      )
      .where('community_id', '=', this.communityId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }
}
