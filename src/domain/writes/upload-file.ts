// upload.create: a file attached to posts. Who may: anyone who may write here (a signed-in person
// allowed to post, an agent with the post:create scope). The bytes are checked before anything is
// kept: at most the operator's size limit, and of an allowed kind by their content
// (../uploads/content-check.ts). Then the bytes are stored under a new id and the record written in
// one transaction that first checks the community's quota (the sum of its uploads); if the record
// cannot be written, the stored bytes are removed again.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { UploadSettings } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import { newId } from '../../store/ids.ts';
import type { NewUpload, Upload, UploaderKind } from '../../store/uploads.ts';
import type { UploadBytes } from '../../store/upload-bytes.ts';
import type { Actor } from '../actor.ts';
import { requireWrite } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { uploadName } from '../fields.ts';
import { parse } from '../validate.ts';
import { detectUpload, safeName } from '../uploads/content-check.ts';

export const uploadContract = z.object({
  file: z.file(),
  /** The name to keep, when the file's own is not the one (a raw REST body has none). */
  filename: uploadName.optional(),
});

/** "8 MiB", "1 GiB", "512 KiB": a byte count as the messages say it. */
export function bytesText(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}

function uploaderOf(actor: Actor): { uploaderKind: UploaderKind; uploaderId: string } {
  if (actor.kind === 'person') return { uploaderKind: 'person', uploaderId: actor.personId };
  if (actor.kind === 'agent') return { uploaderKind: 'agent', uploaderId: actor.agentId };
  return { uploaderKind: 'system', uploaderId: actor.kind === 'system' ? actor.name : 'anonymous' };
}

export type UploadDeps = {
  store: Store;
  bytes: UploadBytes;
  settings: UploadSettings;
  /** A person's e-mail must be confirmed before posting (when the community asks it). */
  mayPost?: (personId: string, community: Community) => Promise<void>;
};

/** Checks and keeps one upload; the record as stored. */
export async function uploadFile(
  deps: UploadDeps,
  actor: Actor,
  community: Community,
  input: unknown,
): Promise<Upload> {
  requireWrite(actor, community);
  if (actor.kind === 'person') await deps.mayPost?.(actor.personId, community);
  const data = parse(uploadContract, input);
  const given = data.filename ?? data.file.name.trim();
  const name = given || 'file';
  const { maxBytes, quotaBytes } = deps.settings;
  if (data.file.size > maxBytes)
    throw new DomainError(
      'invalid_argument',
      `"${name}" is ${bytesText(data.file.size)}: a file may be at most ${bytesText(maxBytes)}.`,
    );
  const bytes = new Uint8Array(await data.file.arrayBuffer());
  const kind = await detectUpload(name, bytes);
  const record: NewUpload = {
    id: newId(),
    ...uploaderOf(actor),
    filename: safeName(name, kind.ext),
    contentType: kind.contentType,
    byteSize: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    width: kind.width,
    height: kind.height,
  };
  await deps.bytes.put(community.id, record.id, bytes);
  try {
    return await deps.store.transaction(async (tx) => {
      const uploads = tx.community(community.id).uploads;
      const used = await uploads.totalBytes();
      if (used + record.byteSize > quotaBytes)
        throw new DomainError(
          'conflict',
          `"${community.slug}" has no room for "${name}" (${bytesText(record.byteSize)}): its files may take ${bytesText(quotaBytes)} together and ${bytesText(used)} are taken. Ask an administrator to make room.`,
        );
      return uploads.create(record);
    });
  } catch (err) {
    await deps.bytes.remove(community.id, record.id);
    throw err;
  }
}
