// Markdown → safe HTML for output. Post bodies are stored as Markdown source and rendered here on
// the way out. Two layers: markdown-it never passes raw HTML through (html: false) and refuses
// javascript:/vbscript:/data: links; sanitize-html then allows only a fixed set of tags, attributes
// and URL schemes, so even a markdown-it bug cannot emit script or event handlers.
// Images from elsewhere are never embedded: a post's `![chart](https://elsewhere.example/x.png)`
// would make every reader's browser fetch that address (tracking, referrer and IP leaks), so each
// image becomes a plain link labelled "Image: <alt text> (<host>)" that the reader may choose to
// open. The one exception is an image uploaded to the same community, which the write names
// (`images`: its exact URL → its pixel size): it is shown as <img> with its width and height.
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
// Bare e-mail addresses are not turned into mailto: links (imported mail must not advertise them).
md.linkify.set({ fuzzyEmail: false });

const LINK_REL = 'nofollow noopener noreferrer ugc';

/** The community's own uploaded images a body may show: exact URL → pixel size. */
export type ImageLinks = ReadonlyMap<string, { width: number; height: number }>;

/** Handles an @mention names, lowercase → the profile URL its link goes to. */
export type MentionLinks = ReadonlyMap<string, string>;

// "@dana" in text (not inside code or a link, not in the middle of a word or an address).
const MENTION = /(^|[^a-zA-Z0-9_.@-])@([a-zA-Z0-9][a-zA-Z0-9_-]{1,29})/g;

type Tokens = ReturnType<typeof md.parse>;

/** Calls `visit` with each text token's content that is outside links (code spans are not text). */
function eachText(tokens: Tokens, visit: (text: string, index: number, list: Tokens) => void) {
  for (const block of tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    let inLink = 0;
    const children = block.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const t = children[i]!;
      if (t.type === 'link_close') inLink++;
      else if (t.type === 'link_open') inLink--;
      else if (t.type === 'text' && inLink === 0) visit(t.content, i, children);
    }
  }
}

// Replaces each known @handle of a text token by a link to the profile (env.mentions).
md.core.ruler.push('mentions', (state) => {
  const links = (state.env as { mentions?: MentionLinks } | undefined)?.mentions;
  if (!links?.size) return;
  eachText(state.tokens, (text, index, list) => {
    const parts: Tokens = [];
    let last = 0;
    for (const m of text.matchAll(MENTION)) {
      const url = links.get(m[2]!.toLowerCase());
      if (!url) continue;
      const at = m.index + m[1]!.length;
      const plain = (content: string) => Object.assign(new state.Token('text', '', 0), { content });
      if (at > last) parts.push(plain(text.slice(last, at)));
      const open = new state.Token('link_open', 'a', 1);
      open.attrs = [
        ['href', url],
        ['class', 'mention'],
      ];
      parts.push(open, plain(`@${m[2]}`), new state.Token('link_close', 'a', -1));
      last = at + m[2]!.length + 1;
    }
    if (!parts.length) return;
    if (last < text.length)
      parts.push(Object.assign(new state.Token('text', '', 0), { content: text.slice(last) }));
    list.splice(index, 1, ...parts);
  });
});

/** The handles a body @mentions (lowercase, each once, in order), outside code and links. */
export function mentionedHandles(source: string): string[] {
  const found: string[] = [];
  eachText(md.parse(source, {}), (text) => {
    for (const m of text.matchAll(MENTION)) found.push(m[2]!.toLowerCase());
  });
  return [...new Set(found.reverse())];
}

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
    a: ['href', 'title', 'rel', 'class'],
    code: ['class'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
  },
  allowedClasses: { code: [/^language-[a-z0-9_+-]+$/], a: ['mention'] },
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

/** SANITIZE, with the community's own uploaded images shown (every other image stays a link). */
function sanitizeWith(images: ImageLinks | undefined): sanitizeHtml.IOptions {
  if (!images?.size) return SANITIZE;
  const asLink = SANITIZE.transformTags!.img as sanitizeHtml.Transformer;
  return {
    ...SANITIZE,
    allowedTags: [...(SANITIZE.allowedTags as string[]), 'img'],
    allowedAttributes: {
      ...SANITIZE.allowedAttributes,
      img: ['src', 'alt', 'width', 'height', 'loading'],
    },
    transformTags: {
      ...SANITIZE.transformTags,
      img: (tagName, attribs) => {
        const size = attribs.src ? images.get(attribs.src) : undefined;
        if (!size) return asLink(tagName, attribs);
        return {
          tagName: 'img',
          attribs: {
            src: attribs.src!,
            alt: attribs.alt ?? '',
            width: String(size.width),
            height: String(size.height),
            loading: 'lazy',
          },
        };
      },
    },
  };
}

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
export function renderMarkdown(source: string, images?: ImageLinks): string {
  return sanitizeHtml(md.render(source), sanitizeWith(images));
}

/**
 * Renders Markdown to sanitized HTML of at most `maxBytes`, or null when it would be larger. The
 * sanitizer only adds to markdown-it's output (link rel attributes, image labels, escapes), so
 * output already over the limit is not sanitized at all: most of the cost of a body too large to
 * show is skipped.
 */
export function renderMarkdownWithin(
  source: string,
  maxBytes: number,
  mentions?: MentionLinks,
  images?: ImageLinks,
): string | null {
  const raw = md.render(source, { mentions });
  if (Buffer.byteLength(raw) > maxBytes) return null;
  const html = sanitizeHtml(raw, sanitizeWith(images));
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
