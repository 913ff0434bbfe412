// Server-rendered HTML: escaping and the page layout. Every page is plain semantic HTML that works
// without JavaScript; user content arrives already sanitized (PostView.html) or is escaped here.
import { communityPath } from '../domain/urls.ts';

/** Escapes text for HTML element content and attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:1rem;color:#1d1d1f}
a{color:#0b57d0}header{border-bottom:1px solid #ddd;margin-bottom:1rem}header p{margin:.25rem 0 1rem}
article{border-top:1px solid #eee;padding:.75rem 0}article.solution{background:#f1f8f1;border-left:4px solid #2e7d32;padding-left:.75rem}
.meta{color:#555;font-size:.875rem}.badge{white-space:nowrap;font-size:.75rem;border:1px solid #2e7d32;color:#2e7d32;border-radius:3px;padding:0 .3rem}
ul.topics{list-style:none;padding:0}ul.topics li{padding:.4rem 0;border-top:1px solid #eee}pre{overflow:auto;background:#f6f8fa;padding:.5rem}`;

export function page(o: { title: string; community?: { slug: string; name: string; description: string }; body: string; status?: number }): string {
  const header = o.community
    ? `<header><p><a href="${esc(communityPath(o.community.slug, '/'))}">${esc(o.community.name)}</a></p></header>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)}${o.community ? ` · ${esc(o.community.name)}` : ''} · Hamlet</title><style>${STYLE}</style></head>
<body>${header}<main>${o.body}</main></body></html>`;
}
