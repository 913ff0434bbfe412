// Uploads: files people attach to posts. Writing one is the use case ../writes/upload-file.ts, run
// by the one runner, its bytes stored once they are checked and before its transaction;
// reading one back is for those who may read the community (a private community's files only for
// its members and agents), from this community only: another community's id is not found here.
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Upload } from '../../store/uploads.ts';
import type { UploadBytes } from '../../store/upload-bytes.ts';
import type { Actor } from '../actor.ts';
import { canRead } from '../authorization.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import { uploadCreate, type UploadPrepared, type UploadUseCase } from '../writes/upload-file.ts';
import type { ImageLinks } from '../markdown.ts';
import { imageLinks, isImage, uploadMarkdown, uploadsIn, uploadUrl } from './links.ts';

export type UploadView = {
  id: string;
  url: string;
  filename: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  width: number | null;
  height: number | null;
  createdAt: string;
  /** What to put in a post to show it. */
  markdown: string;
};

export class UploadService {
  private readonly create: UploadUseCase;

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly bytes: UploadBytes,
    private readonly runner: WriteRunner,
    mayPost?: (personId: string, community: Community) => Promise<void>,
  ) {
    this.create = uploadCreate({ settings: config.uploads, mayPost });
  }

  /** The largest file, and what one community's files may take together. */
  limits(): { maxBytes: number; quotaBytes: number } {
    return { maxBytes: this.config.uploads.maxBytes, quotaBytes: this.config.uploads.quotaBytes };
  }

  /** The community's images a body links to, for rendering it as it will read (a preview). */
  async imagesIn(community: Community, body: string): Promise<ImageLinks | undefined> {
    return imageLinks(this.config, community, await uploadsIn(this.store, community, body));
  }

  view(community: Community, u: Upload): UploadView {
    return {
      id: u.id,
      url: uploadUrl(this.config, community, u),
      filename: u.filename,
      contentType: u.contentType,
      byteSize: u.byteSize,
      sha256: u.sha256,
      width: u.width,
      height: u.height,
      createdAt: u.createdAt,
      markdown: uploadMarkdown(this.config, community, u),
    };
  }

  /**
   * Checks and keeps a file (`input`: `{file, filename?}`); its view. The bytes are stored once
   * checked, before the record's transaction, and removed again when the record is not written.
   */
  async upload(
    actor: Actor,
    community: Community,
    input: unknown,
    options: RunOptions = {},
  ): Promise<UploadView> {
    const begun = await this.runner.begin(this.create, actor, community, input, options);
    if (!('run' in begun)) return this.view(community, begun.answered);
    const { record, bytes } = begun.loaded as UploadPrepared;
    try {
      await this.bytes.put(community.id, record.id, bytes);
      return this.view(community, await begun.run());
    } catch (err) {
      await this.bytes.remove(community.id, record.id);
      throw err;
    }
  }

  /**
   * The upload `id` named `name` with its bytes, for a reader of the community; undefined when it
   * is not this community's, has another name, or the actor may not read here (one answer for all).
   */
  async open(
    actor: Actor,
    community: Community,
    id: string,
    name: string,
  ): Promise<{ upload: Upload; inline: boolean; body: ReadableStream<Uint8Array> } | undefined> {
    if (!canRead(actor, community)) return undefined;
    const upload = await this.store.community(community.id).uploads.get(id);
    if (!upload || upload.filename !== name) return undefined;
    const body = await this.bytes.open(community.id, upload.id);
    return body ? { upload, inline: isImage(upload), body } : undefined;
  }
}
