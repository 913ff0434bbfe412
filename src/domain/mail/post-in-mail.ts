// The post a notification mail is about, as the mail shows it: its Markdown with the quoted history
// trimmed (the trailing quote of a reply sent by mail and its "On …, Ada wrote:" line, quotes of
// quotes), cut to a readable length, as text for the plain part and rendered (sanitized, its site
// links made absolute) for the HTML part. Someone answering by mail then answers what they read.
import { renderMarkdown } from '../markdown.ts';

/** At most this many characters of a post's Markdown go into a mail; the rest is behind the link. */
export const MAIL_POST_CHARS = 4000;

const ATTRIBUTION = /(wrote|writes|said|schrieb|a écrit|escribió)\s*:\s*$/i;

function quoteDepth(line: string): number {
  const m = /^\s*((?:>\s?)+)/.exec(line);
  return m ? (m[1]!.match(/>/g) ?? []).length : 0;
}

/**
 * The Markdown without its quoted history: the quote block that ends the post (bottom-quoting) and
 * the attribution line before it go, and so do quotes of quotes; a one-level quote followed by the
 * writer's answer stays (it is the context the answer needs). A post of nothing but quotes is kept.
 */
export function trimQuotedHistory(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let end = lines.length;
  while (end > 0 && (quoteDepth(lines[end - 1]!) > 0 || lines[end - 1]!.trim() === '')) end--;
  let kept = lines.slice(0, end).filter((line) => quoteDepth(line) < 2);
  while (kept.length && (kept.at(-1)!.trim() === '' || ATTRIBUTION.test(kept.at(-1)!.trim())))
    kept = kept.slice(0, -1);
  const text = kept.join('\n').trim();
  return text || markdown.trim();
}

/** Cut at a paragraph (or line) boundary before `max` characters, with an ellipsis line. */
function cut(markdown: string, max: number): { text: string; cut: boolean } {
  if (markdown.length <= max) return { text: markdown, cut: false };
  const head = markdown.slice(0, max);
  const at = Math.max(head.lastIndexOf('\n\n'), head.lastIndexOf('\n'));
  // An open code fence would swallow the rest of the mail: close it.
  let text = (at > max / 2 ? head.slice(0, at) : head).trimEnd();
  if ((text.match(/^```/gm) ?? []).length % 2 === 1) text += '\n```';
  return { text: `${text}\n\n…`, cut: true };
}

/** Root-relative links and images of a render (`/u/…`, `/uploads/…`) on the community's origin. */
function absolute(html: string, origin: string): string {
  return html.replace(/(\s(?:href|src)=")\/(?!\/)/g, `$1${origin}/`);
}

export type PostInMail = {
  /** The trimmed Markdown, for the plain-text part. */
  text: string;
  /** The trimmed Markdown rendered and sanitized, for the HTML part. */
  html: string;
  /** Who wrote it. */
  author: string;
  /** Part of the post was left out (the link shows it whole). */
  cut: boolean;
};

/** The post's words for a mail, by `author`, on the community at `origin`. */
export function postInMail(markdown: string, author: string, origin: string): PostInMail {
  const trimmed = cut(trimQuotedHistory(markdown), MAIL_POST_CHARS);
  const quoted = absolute(renderMarkdown(trimmed.text), origin);
  return {
    text: trimmed.text,
    html: quoted,
    author,
    cut: trimmed.cut,
  };
}
