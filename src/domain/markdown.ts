// Markdown → safe HTML for output. Post bodies are stored as Markdown source and rendered here on
// the way out. Two layers: markdown-it never passes raw HTML through (html: false) and refuses
// javascript:/vbscript:/data: links; sanitize-html then allows only a fixed set of tags, attributes
// and URL schemes, so even a markdown-it bug cannot emit script or event handlers.
// Images are never embedded: a post's `![chart](https://elsewhere.example/x.png)` would make every
// reader's browser fetch that address (tracking, referrer and IP leaks), so each image becomes a
// plain link labelled "Image: <alt text> (<host>)" that the reader may choose to open.
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
// Bare e-mail addresses are not turned into mailto: links (imported mail must not advertise them).
md.linkify.set({ fuzzyEmail: false });

const LINK_REL = 'nofollow noopener noreferrer ugc';

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'pre',
    'code',
    'em',
    'strong',
    's',
    'del',
    'ul',
    'ol',
    'li',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    code: ['class'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
  },
  allowedClasses: { code: [/^language-[a-z0-9_+-]+$/] },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'escape',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: LINK_REL } }),
    img: (_tagName, attribs) => ({
      tagName: 'a',
      attribs: { href: attribs.src ?? '', rel: LINK_REL },
      text: imageLabel(attribs.src, attribs.alt),
    }),
  },
};

function imageLabel(src: string | undefined, alt: string | undefined): string {
  let host = '';
  try {
    host = src ? new URL(src).host : '';
  } catch {
    host = '';
  }
  return `Image: ${alt?.trim() || 'untitled'}${host ? ` (${host})` : ''}`;
}

/** Renders Markdown to sanitized HTML. */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(md.render(source), SANITIZE);
}

/**
 * Renders Markdown to sanitized HTML of at most `maxBytes`, or null when it would be larger. The
 * sanitizer only adds to markdown-it's output (link rel attributes, image labels, escapes), so
 * output already over the limit is not sanitized at all: most of the cost of a body too large to
 * show is skipped.
 */
export function renderMarkdownWithin(source: string, maxBytes: number): string | null {
  const raw = md.render(source);
  if (Buffer.byteLength(raw) > maxBytes) return null;
  const html = sanitizeHtml(raw, SANITIZE);
  return Buffer.byteLength(html) > maxBytes ? null : html;
}

/** Plain text of a Markdown body (for snippets, titles, search indexing). */
export function markdownToText(source: string): string {
  return sanitizeHtml(md.render(source), { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
