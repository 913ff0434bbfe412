// Rendered HTML, stored: a post's or an article revision's Markdown is rendered and sanitized
// (./markdown.ts) once, when it is written, and kept beside it with the renderer's version; reads
// show the stored HTML. A record rendered by an older renderer, or never (written before migration
// 0074, or straight through the store), is rendered again on its next read and written back.
//
// The output limits, as the product decides them:
//   post HTML    at most 256 KiB (262,144 bytes) of rendered HTML per post or revision; a body that
//                renders to more is shown as a notice and its Markdown source ("view raw"), which
//                the body limit (./fields.ts) bounds
//   topic page   at most 512 KiB (524,288 bytes) of what one page of a topic shows: the posts' HTML
//                on the web, their Markdown through the APIs. A page ends before the post that
//                would pass it (it always holds one post at least) and its cursor goes on from there.
import type { CommunityScope } from '../store/repositories.ts';
import type { ArticleRevision, Post, Rendered } from '../store/types.ts';
import { renderMarkdownWithin, type ImageLinks, type MentionLinks } from './markdown.ts';

export const RENDER_LIMITS = { postHtmlBytes: 262_144, pageBytes: 524_288 } as const;

/**
 * The renderer's version, stored with every render. Raise it whenever what a body renders to
 * changes (./markdown.ts, its sanitizer settings, the post limit or the fallback below): stored
 * renders of older versions are then redone as they are read.
 */
export const RENDERER_VERSION = 1;

/** What a page of posts is measured in: the HTML the web shows, or the Markdown the APIs return. */
export type Shown = 'html' | 'markdown';

type Renderable = { body: string; rendered: Rendered | null };

/**
 * The body rendered by this renderer, or the "too large" notice with its source when over the limit.
 * `mentions`: the @handles that link to a profile (resolved by the write; a render made on read
 * without them shows the handles as text). `images`: the community's own uploaded images it shows
 * (resolved by the write too; a render on read without them shows those images as links).
 */
export function renderBody(body: string, mentions?: MentionLinks, images?: ImageLinks): Rendered {
  const html = renderMarkdownWithin(body, RENDER_LIMITS.postHtmlBytes, mentions, images);
  return { html: html ?? tooLarge(body), version: RENDERER_VERSION };
}

function tooLarge(body: string): string {
  const kb = (n: number) => `${Math.ceil(n / 1024).toLocaleString('en')} KB`;
  return (
    `<p class="too-large"><strong>This post is too large to show here</strong>: formatted, it would be more than ${kb(RENDER_LIMITS.postHtmlBytes)}.</p>` +
    `<details class="raw"><summary>View raw Markdown (${kb(Buffer.byteLength(body))})</summary><pre>${escapeHtml(body)}</pre></details>`
  );
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Whether a stored render may be shown as it is (made by this renderer, or a newer one). */
export function isCurrent(rendered: Rendered | null): rendered is Rendered {
  return rendered !== null && rendered.version >= RENDERER_VERSION;
}

/** The HTML to show for a record: its stored render when current, else rendered now (not stored). */
export function shownHtml(record: Renderable): string {
  return isCurrent(record.rendered) ? record.rendered.html : renderBody(record.body).html;
}

/** A post with a current render: the stored one, or one made now and written back. */
async function currentPost(scope: CommunityScope, post: Post): Promise<Post> {
  if (isCurrent(post.rendered)) return post;
  const rendered = renderBody(post.body);
  await scope.posts.saveRendered(post.id, post.body, rendered);
  return { ...post, rendered };
}

/** The posts, each with a current render (stale ones rendered and written back). */
export async function currentPosts(scope: CommunityScope, posts: Post[]): Promise<Post[]> {
  const out: Post[] = [];
  for (const post of posts) out.push(await currentPost(scope, post));
  return out;
}

/** The revisions, each with a current render (stale ones rendered and written back). */
export async function currentRevisions(
  scope: CommunityScope,
  revisions: ArticleRevision[],
): Promise<ArticleRevision[]> {
  const out: ArticleRevision[] = [];
  for (const revision of revisions) {
    if (isCurrent(revision.rendered)) {
      out.push(revision);
      continue;
    }
    const rendered = renderBody(revision.body);
    await scope.articles.saveRendered(revision.id, rendered);
    out.push({ ...revision, rendered });
  }
  return out;
}

/**
 * The leading posts that fit in one page's byte budget (RENDER_LIMITS.pageBytes of what is shown;
 * one post at least), each with a current render. Posts past the cut are not rendered here.
 * `cut`: some of `posts` did not fit.
 */
export async function fitPage(
  scope: CommunityScope,
  posts: Post[],
  shown: Shown,
): Promise<{ posts: Post[]; cut: boolean }> {
  const out: Post[] = [];
  let bytes = 0;
  for (const post of posts) {
    const current = await currentPost(scope, post);
    bytes += Buffer.byteLength(shown === 'html' ? current.rendered!.html : current.body);
    if (out.length > 0 && bytes > RENDER_LIMITS.pageBytes) return { posts: out, cut: true };
    out.push(current);
  }
  return { posts: out, cut: false };
}
