// Where an upload is served and how a post links to it: `<community origin>/uploads/<id>/<name>`
// (canonical, as every stored URL), the Markdown a composer inserts (`![name](url)` for an image,
// `[name](url)` for any other file), and which images a body shows: only uploads of the same
// community are embedded, with their width and height; any other image stays a plain link.
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Upload } from '../../store/uploads.ts';
import type { ImageLinks } from '../markdown.ts';
import { communityOrigin } from '../urls.ts';

export function uploadUrl(config: Config, community: Community, upload: Upload): string {
  return `${communityOrigin(config, community.slug)}/uploads/${upload.id}/${upload.filename}`;
}

export function isImage(upload: Upload): boolean {
  return upload.width !== null && upload.contentType.startsWith('image/');
}

/** The Markdown that shows the upload in a post. */
export function uploadMarkdown(config: Config, community: Community, upload: Upload): string {
  const label = upload.filename.replace(/[[\]]/g, '');
  const url = uploadUrl(config, community, upload);
  return isImage(upload) ? `![${label.replace(/\.[a-z]+$/, '')}](${url})` : `[${label}](${url})`;
}

const UPLOAD_ID = /\/uploads\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//gi;

/** The uploads of this community a body links to (at most 100 looked up). */
export async function uploadsIn(
  store: Store,
  community: Community,
  body: string,
): Promise<Upload[]> {
  const ids = [...new Set([...body.matchAll(UPLOAD_ID)].map((m) => m[1]!.toLowerCase()))];
  if (!ids.length) return [];
  return store.community(community.id).uploads.getMany(ids.slice(0, 100));
}

/** The renderer's images: each of the community's image uploads by its URL, with its size. */
export function imageLinks(
  config: Config,
  community: Community,
  uploads: readonly Upload[] | undefined,
): ImageLinks | undefined {
  const images = uploads?.filter(isImage);
  if (!images?.length) return undefined;
  return new Map(
    images.map((u) => [uploadUrl(config, community, u), { width: u.width!, height: u.height! }]),
  );
}
