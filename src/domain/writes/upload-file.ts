// upload.create: a file attached to posts, a use case of the one runner (./runner.ts). Who may:
// anyone who may write here (a signed-in person allowed to post, an agent with the post:create
// scope). Load checks the bytes before anything is kept: at most the operator's size limit, and of
// an allowed kind by their content (../uploads/content-check.ts); the record to write gets its new
// id there. The bytes are stored under that id between load and the runner's transaction (by the
// upload service, so that no transaction waits on the disk), and the transaction first checks the
// community's quota (the sum of its uploads, read in the transaction so that two uploads at once
// cannot both take the last room), then writes the record. If the record cannot be written, the
// service removes the stored bytes again.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { UploadSettings } from '../../config/config.ts';
import { newId } from '../../store/ids.ts';
import type { NewUpload, Upload, UploaderKind } from '../../store/uploads.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { uploadName } from '../fields.ts';
import { detectUpload, safeName } from '../uploads/content-check.ts';
import { mayWriteHere, type ContentDeps } from './content-write.ts';
import type { UseCase } from './use-case.ts';

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

/** The file checked, as it is kept: the record to write and its bytes. */
export type UploadPrepared = { name: string; record: NewUpload; bytes: Uint8Array };

export type UploadDeps = ContentDeps & { settings: UploadSettings };

export type UploadUseCase = UseCase<z.output<typeof uploadContract>, UploadPrepared, Upload>;

export function uploadCreate(deps: UploadDeps): UploadUseCase {
  return {
    name: 'upload.create',
    contract: uploadContract,
    guard: (ctx) => mayWriteHere(ctx, deps),
    load: async ({ actor }, data) => {
      const given = data.filename ?? data.file.name.trim();
      const name = given || 'file';
      const { maxBytes } = deps.settings;
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
      return { name, record, bytes };
    },
    policy: async () => ({ mode: 'apply', reason: 'upload' }),
    apply: async ({ tx, community }, _data, { name, record }) => {
      const uploads = tx.community(community.id).uploads;
      const used = await uploads.totalBytes();
      const { quotaBytes } = deps.settings;
      if (used + record.byteSize > quotaBytes)
        throw new DomainError(
          'conflict',
          `"${community.slug}" has no room for "${name}" (${bytesText(record.byteSize)}): its files may take ${bytesText(quotaBytes)} together and ${bytesText(used)} are taken. Ask an administrator to make room.`,
        );
      return uploads.create(record);
    },
    audit: (upload) => ({ targets: { upload: upload.id } }),
  };
}
