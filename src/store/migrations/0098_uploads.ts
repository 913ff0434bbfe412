// Uploads: files people attach to posts (images, PDFs, text, zip archives). One row per file per
// community, keyed by (community, id); the bytes are kept in the community's folder of the uploads
// directory under the id. The quota sums byte_size over a community (the primary key's leading
// community_id serves that scan).
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function uploadsMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('uploads')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('id', id, (c) => c.notNull())
        // "person", "agent" or "system", and that one's id (kept if they go: the file stays).
        .addColumn('uploader_kind', 'text', (c) => c.notNull())
        .addColumn('uploader_id', 'text', (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('byte_size', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('uploads_pk', ['community_id', 'id'])
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('uploads').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
