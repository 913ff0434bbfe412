// The bytes of uploaded files, outside the database: `<dir>/<community id>/<upload id>`, one folder
// per community. A file is written to a temporary name and renamed into place, so a reader never
// sees half of one; the record (./uploads.ts) is written after the bytes, and the bytes of a record
// that could not be written are removed again. Ids are checked to be UUIDs before they name a path.
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { isUuid } from './ids.ts';

export class UploadBytes {
  constructor(private readonly dir: string) {}

  private path(communityId: string, id: string): string {
    if (!isUuid(communityId) || !isUuid(id)) throw new Error('upload paths are named by UUIDs');
    return join(this.dir, communityId.toLowerCase(), id.toLowerCase());
  }

  async put(communityId: string, id: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(communityId, id);
    await mkdir(join(this.dir, communityId.toLowerCase()), { recursive: true });
    const partial = `${path}.partial`;
    await writeFile(partial, bytes, { flag: 'wx' });
    await rename(partial, path);
  }

  /** The file's bytes as a web stream; undefined when there is none. */
  async open(communityId: string, id: string): Promise<ReadableStream<Uint8Array> | undefined> {
    if (!isUuid(communityId) || !isUuid(id)) return undefined;
    const path = this.path(communityId, id);
    try {
      if (!(await stat(path)).isFile()) return undefined;
    } catch {
      return undefined;
    }
    return Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  }

  async remove(communityId: string, id: string): Promise<void> {
    await rm(this.path(communityId, id), { force: true });
  }
}
