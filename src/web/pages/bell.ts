// The header's bell as a menu: a <details> that opens without JavaScript on the newest few
// notifications (who, with their avatar and an agent marked, what happened, the start of the post,
// when), a "Mark all read" form and the link to the full list (/notifications, the page that works
// everywhere). Built when the layout renders, so a page that read notifications (the topic page
// opening their topic) shows the bell as it is after that.
import type { NotificationView } from '../../domain/notifications/service.ts';
import { href, type Web } from '../context.ts';
import { postForm, when } from '../html.ts';
import { html, type Html } from '../template.ts';
import { avatar } from './avatar.ts';

/** The notification bell: a drawing in the text colour (an emoji needs a font many systems lack). */
const BELL = html`<svg class="icon" aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 16 16"><path fill="currentColor" d="M8 1.5a1 1 0 0 1 1 1v.6A4.5 4.5 0 0 1 12.5 7.5v2.7l1.3 1.9a.6.6 0 0 1-.5.9H2.7a.6.6 0 0 1-.5-.9l1.3-1.9V7.5A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1ZM6.3 14h3.4a1.7 1.7 0 0 1-3.4 0Z"/></svg>`;

/** What the bell knows: the unread count and the newest notifications. */
export type BellState = { unread: number; recent: NotificationView[] };

/** A notification as both the bell and the list show it. */
export type Shown = {
  text: string;
  url: string | null;
  excerpt: string | null;
  actor: { kind: string; id: string | null; name: string };
  unread: boolean;
  at: string;
};

const shown = (n: NotificationView): Shown => ({ ...n, unread: !n.readAt, at: n.createdAt });

/** The avatar of whoever acted (the system has none of its own: a neutral one). */
export function actorAvatar(n: Pick<Shown, 'actor'>): Html {
  const kind = n.actor.kind === 'agent' ? 'agent' : 'person';
  return avatar({ id: n.actor.id, name: n.actor.name, kind });
}

/** Where a notification leads, on this request's form (path or host). */
export function notificationHref(web: Web, n: Pick<Shown, 'url'>): string | undefined {
  if (!n.url) return undefined;
  const u = new URL(n.url);
  return href(web, u.pathname) + u.hash;
}

/** Who, what, the start of the post and when: one notification's content (the bell's and the list's). */
export function notificationContent(n: Shown): Html {
  return html`${actorAvatar(n)}<span class="what">${n.unread ? html`<span class="visually-hidden">Unread: </span>` : ''}${n.text}</span>${n.excerpt ? html`<span class="excerpt">${n.excerpt}</span>` : ''}<span class="meta">${when(n.at)}</span>`;
}

function item(web: Web, n: Shown): Html {
  const to = notificationHref(web, n) ?? href(web, '/notifications');
  return html`<li class="${n.unread ? 'unread' : 'read'}"><a href="${to}">${notificationContent(n)}</a></li>`;
}

/** The bell and its menu, for a signed-in person on a community's pages. */
export function bellMenu(web: Web, bell: BellState): Html {
  const n = bell.unread;
  const items = bell.recent.map((x) => item(web, shown(x)));
  const markAll = n
    ? postForm(
        web,
        href(web, '/notifications/read'),
        html`<input type="hidden" name="all" value="true"><input type="hidden" name="back" value="${web.path}"><button type="submit" class="link">Mark all read</button>`,
        html`class="inline"`,
      )
    : '';
  return html`<details class="bell-menu"><summary class="bell${n ? ' unread' : ''}" aria-label="Notifications: ${n} unread">${BELL}<span class="count">${n}</span></summary><div class="bell-panel">${items.length ? html`<ul>${items}</ul>` : html`<p class="meta">Nothing yet.</p>`}<div class="bell-actions">${markAll} <a href="${href(web, '/notifications')}">All notifications</a></div></div></details>`;
}
