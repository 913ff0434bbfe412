// Rendered posts, remembered: rendering and sanitizing Markdown costs about half a millisecond a
// post, most of a long topic page's time. A post's HTML depends only on its body, which changes
// only by an edit (which moves edited_at), so the key is the post id and its last change; the
// least recently used entries go first.
import { renderMarkdown } from '../domain/markdown.ts';

const MAX_ENTRIES = 5_000;
const cache = new Map<string, string>();

/** The sanitized HTML of a post's Markdown body. */
export function postHtml(post: {
  id: string;
  body: string;
  created_at: string;
  edited_at: string | null;
}): string {
  const key = `${post.id}|${post.edited_at ?? post.created_at}|${post.body.length}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const html = renderMarkdown(post.body);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, html);
  return html;
}
