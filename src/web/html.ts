// The page layout: the document around every page, with the skip link, the navigation a visitor's
// role allows and the page's notices; and the small parts every page shares (a POST form with its
// token, times, counts). Every page is plain semantic HTML that works without JavaScript, built by
// the html template (template.ts), which escapes all text it is handed.
import { canRead, roleAtLeast } from '../domain/authorization.ts';
import { isRole } from '../domain/vocabulary.ts';
import { href, type Notice, type Web } from './context.ts';
import { asset } from './assets.ts';
import { sanctionNotice } from './sanction-notice.ts';
import { html, markupOf, type Html } from './template.ts';

export function notice(n: Notice | undefined): Html {
  if (!n) return html``;
  return n.kind === 'error'
    ? html`<div class="notice error" role="alert"><p>${n.text}</p></div>`
    : html`<div class="notice ok" role="status"><p>${n.text}</p></div>`;
}

/** The signed-in person's role in the community of the request, if any. */
export function roleHere(web: Web) {
  if (web.where.kind !== 'community' || !web.person) return undefined;
  const role = web.person.roles?.[web.where.community.id];
  return isRole(role) ? role : undefined;
}

/** The notification bell: a drawing in the text colour (an emoji needs a font many systems lack). */
const BELL = html`<svg class="icon" aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 16 16"><path fill="currentColor" d="M8 1.5a1 1 0 0 1 1 1v.6A4.5 4.5 0 0 1 12.5 7.5v2.7l1.3 1.9a.6.6 0 0 1-.5.9H2.7a.6.6 0 0 1-.5-.9l1.3-1.9V7.5A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1ZM6.3 14h3.4a1.7 1.7 0 0 1-3.4 0Z"/></svg>`;

/**
 * A POST form around `inner`, with its hidden form-token field; `attrs` are the form's own. The
 * action is a path of the community (as href takes it): it posts in the form the page came in.
 */
export function postForm(web: Web, action: string, inner: Html, attrs?: Html): Html {
  return html`<form method="post" action="${href(web, action)}"${attrs ? html` ${attrs}` : ''}><input type="hidden" name="_csrf" value="${web.csrf}">${inner}</form>`;
}

function nav(web: Web): Html {
  const links: Html[] = [];
  const community =
    web.where.kind === 'community' &&
    canRead(web.person ?? { kind: 'anonymous' }, web.where.community);
  const role = roleHere(web);
  links.push(html`<a href="${href(web, '/search')}">Search</a>`);
  if (community) {
    // A suspended or silenced person is not offered what they may not do.
    if (!web.sanction) links.push(html`<a href="${href(web, '/ask')}">Ask a question</a>`);
    if (role && !web.sanction)
      links.push(html`<a href="${href(web, '/write')}">Write an article</a>`);
    if (roleAtLeast(role, 'moderator'))
      links.push(html`<a href="${href(web, '/review')}">Review</a>`);
    if (roleAtLeast(role, 'admin')) links.push(html`<a href="${href(web, '/admin')}">Admin</a>`);
  }
  if (web.person && community) {
    const n = web.unread ?? 0;
    links.push(html`<a href="${href(web, '/bookmarks')}">Bookmarks</a>`);
    links.push(
      web.bellMenu?.() ??
        html`<a href="${href(web, '/notifications')}" class="bell${n ? ' unread' : ''}" aria-label="Notifications: ${n} unread">${BELL}<span class="count">${n}</span></a>`,
    );
  }
  if (web.person) {
    links.push(html`<a href="${href(web, '/account')}">${web.person.displayName}</a>`);
    links.push(
      postForm(
        web,
        href(web, '/signout'),
        html`<button type="submit" class="link">Sign out</button>`,
        html`class="inline"`,
      ),
    );
  } else {
    const next =
      web.path === href(web, '/signin') || web.path === href(web, '/signup')
        ? ''
        : `?next=${encodeURIComponent(web.path)}`;
    links.push(
      html`<a href="${href(web, '/signin') + next}">Sign in</a>`,
      html`<a href="${href(web, '/signup')}">Sign up</a>`,
    );
  }
  return html`<nav aria-label="Main"><ul>${links.map((l) => html`<li>${l}</li>`)}</ul></nav>`;
}

/** What a page tells search engines, link previews and feed readers about itself. */
export type PageMeta = {
  description?: string;
  /** Open Graph type: "website" unless the page is one piece of content ("article"). */
  type?: 'website' | 'article';
  /** The Atom feed that follows this page. */
  feed?: { title: string; href: string };
};

export type PageOptions = {
  title: string;
  body: Html;
  notice?: Notice;
  status?: number;
  meta?: PageMeta;
};

/** The first sentences of a Markdown text as plain text (for a meta description), ≤ 200 chars. */
export function plainExcerpt(markdown: string, max = 200): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`~|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** The head's description, canonical link, Open Graph tags and feed link (readable pages only). */
function headMeta(web: Web, site: string, o: PageOptions): Html {
  const m = o.meta;
  if (!m || (o.status ?? 200) !== 200) return html``;
  return html`<link rel="canonical" href="${web.canonical}">${m.description ? html`<meta name="description" content="${m.description}">` : ''}<meta property="og:title" content="${o.title}"><meta property="og:type" content="${m.type ?? 'website'}"><meta property="og:url" content="${web.canonical}"><meta property="og:site_name" content="${site}">${m.description ? html`<meta property="og:description" content="${m.description}">` : ''}${m.feed ? html`<link rel="alternate" type="application/atom+xml" title="${m.feed.title}" href="${m.feed.href}">` : ''}`;
}

/** The whole document. The community's name shows only to those who may read the community. */
export function layout(web: Web, o: PageOptions): Html {
  const readable =
    web.where.kind === 'community' &&
    canRead(web.person ?? { kind: 'anonymous' }, web.where.community);
  const site = readable && web.where.kind === 'community' ? web.where.community.name : 'Hamlet';
  // A page with a copy button (pages/copyable.ts) gets the script that runs it.
  const copy = markupOf(o.body).includes(' data-copy="');
  const wanted = [...(web.scripts ?? []), ...(copy ? ['copy.js'] : [])];
  const scripts = wanted.map((s) => html`<script src="${asset(s)}" defer></script>`);
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>${o.title}${site === o.title || site === 'Hamlet' ? '' : ` · ${site}`} · Hamlet</title><link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="${asset('hamlet.css')}">${readable ? headMeta(web, site, o) : ''}${scripts}</head>
<body><a class="skip" href="#main">Skip to content</a><header><p class="site"><a href="${href(web, '/')}">${site}</a>${readable ? '' : web.where.kind === 'network' ? html` <span class="meta">network</span>` : ''}</p>${nav(web)}</header>
<main id="main" tabindex="-1">${sanctionNotice(web)}${notice(o.notice ?? web.flash)}${o.body}</main><footer><p class="meta">Hamlet: a forum for people and agents. <a href="/llms">Agent documentation</a></p></footer></body></html>`;
}

/** A bare page (unknown hosts, server errors): no navigation, nothing of any community. */
export function barePage(title: string, message: string, extra?: Html): Html {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>${title} · Hamlet</title><link rel="stylesheet" href="${asset('hamlet.css')}"></head>
<body><main id="main"><h1>${title}</h1><p>${message}</p>${extra}</main></body></html>`;
}

/**
 * A page of the site's look (header, main, footer, the stylesheet) for addresses that resolve to no
 * community the visitor may see: it carries nothing of any community, only what the URL says.
 */
export function hostPage(title: string, body: Html): Html {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>${title} · Hamlet</title><link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="${asset('hamlet.css')}"><meta name="robots" content="noindex"></head>
<body><a class="skip" href="#main">Skip to content</a><header><p class="site">Hamlet</p></header>
<main id="main" tabindex="-1">${body}</main><footer><p class="meta">Hamlet: a forum for people and agents.</p></footer></body></html>`;
}

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** How long ago `iso` was, as a reader says it: "just now", "5 min ago", … then the date. */
export function relativeTime(iso: string, now = Date.now()): string {
  const t = new Date(iso);
  const seconds = Math.round((now - t.getTime()) / 1000);
  if (Number.isNaN(seconds)) return iso;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  if (days < 30) return days === 1 ? 'yesterday' : `${days} days ago`;
  return `${MONTHS[t.getUTCMonth()]} ${t.getUTCDate()}, ${t.getUTCFullYear()}`;
}

/** `<time>`: how long ago for the reader, the exact time (UTC) on hover and in the attribute. */
export function when(iso: string, now = Date.now()): Html {
  const exact = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return html`<time datetime="${iso}" title="${exact}">${relativeTime(iso, now)}</time>`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
