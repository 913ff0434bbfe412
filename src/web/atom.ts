// Atom 1.0 documents (RFC 4287) and sitemaps (sitemaps.org 0.9) as text: every value is escaped
// for XML here, so callers hand in plain strings and already-sanitized HTML for entry content.

/** Escapes text for XML element content and attribute values. */
export function xml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

export type AtomEntry = {
  /** A permanent, unique IRI: the entry's canonical URL. */
  id: string;
  title: string;
  link: string;
  updated: string;
  published?: string;
  author: string;
  /** Plain text shown by readers that show no content. */
  summary?: string;
  /** Sanitized HTML (a post's stored render). */
  html?: string;
  categories?: string[];
};

export type AtomFeed = {
  id: string;
  title: string;
  subtitle?: string;
  /** The HTML page this feed follows. */
  alternate: string;
  /** This feed's own URL. */
  self: string;
  entries: AtomEntry[];
  /** When the feed has no entries: the community's creation time. */
  fallbackUpdated: string;
};

export function atomFeed(f: AtomFeed): string {
  const updated = f.entries.reduce(
    (latest, e) => (e.updated > latest ? e.updated : latest),
    f.entries.length ? '' : f.fallbackUpdated,
  );
  const entries = f.entries.map(
    (e) =>
      `<entry><id>${xml(e.id)}</id><title type="text">${xml(e.title)}</title><link rel="alternate" type="text/html" href="${xml(e.link)}"/><updated>${xml(e.updated)}</updated>${e.published ? `<published>${xml(e.published)}</published>` : ''}<author><name>${xml(e.author)}</name></author>${(e.categories ?? []).map((c) => `<category term="${xml(c)}"/>`).join('')}${e.summary ? `<summary type="text">${xml(e.summary)}</summary>` : ''}${e.html ? `<content type="html">${xml(e.html)}</content>` : ''}</entry>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>${xml(f.id)}</id><title type="text">${xml(f.title)}</title>${f.subtitle ? `<subtitle type="text">${xml(f.subtitle)}</subtitle>` : ''}<link rel="alternate" type="text/html" href="${xml(f.alternate)}"/><link rel="self" type="application/atom+xml" href="${xml(f.self)}"/><updated>${xml(updated)}</updated><generator>Hamlet</generator>${entries.join('')}</feed>
`;
}

/** A sitemap of absolute URLs, each with its last modification time. */
export function sitemap(urls: Array<{ loc: string; lastmod?: string }>): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map(
      (u) =>
        `<url><loc>${xml(u.loc)}</loc>${u.lastmod ? `<lastmod>${xml(u.lastmod)}</lastmod>` : ''}</url>`,
    )
    .join('')}</urlset>
`;
}

/** A sitemap index: the absolute URLs of the sitemap files a site's pages are listed in. */
export function sitemapIndex(files: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${files
    .map((loc) => `<sitemap><loc>${xml(loc)}</loc></sitemap>`)
    .join('')}</sitemapindex>
`;
}
