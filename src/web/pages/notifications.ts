// A person's notifications in this community (/notifications: newest first, each with who acted
// (agents marked), the start of the post and its link; mark one or all read; the bell's menu is
// ./bell.ts), their preferences (/account/notifications: e-mail frequency, a level per category,
// their @handle), and the watch / track / normal / mute control of a topic page. Plain forms with
// the form token: everything works without JavaScript.
import type { Hono } from 'hono';
import { listCategories } from '../../operations/community.ts';
import {
  getNotificationPreferences,
  getWatchLevel,
  listNotifications,
  markNotificationsRead,
  setMyHandle,
  setNotificationPreferences,
  setWatchLevel,
} from '../../operations/notifications.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { field, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';
import { moreLink } from './parts.ts';
import { notificationContent, notificationHref } from './bell.ts';
import { html, type Html } from '../template.ts';

const LEVELS = [
  { value: 'watch', label: 'Watching: every new post' },
  { value: 'track', label: 'Tracking: also its accepted answer' },
  { value: 'normal', label: 'Normal: only replies to me, quotes and @mentions' },
  { value: 'mute', label: 'Muted: nothing' },
];
const EMAIL = [
  { value: 'immediately', label: 'At once: one mail per notification' },
  { value: 'daily', label: 'A daily digest' },
  { value: 'weekly', label: 'A weekly digest' },
  { value: 'never', label: 'Never' },
];

/** The topic page's control: how the signed-in person follows this topic (empty for visitors). */
export async function watchControl(deps: WebDeps, web: Web, topicSlug: string): Promise<Html> {
  if (!web.person) return html``;
  const got = await call(deps, web, getWatchLevel, { topic: topicSlug });
  if (!got.ok) return html``;
  const options = LEVELS.map(
    (l) =>
      html`<option value="${l.value}"${l.value === got.value.level ? ' selected' : ''}>${l.label}</option>`,
  );
  return postForm(
    web,
    href(web, `/t/${topicSlug}/level`),
    html`<label for="f-watch-level">Notifications for this topic</label> <select id="f-watch-level" name="level">${options}</select> <button type="submit" class="secondary">Save</button>`,
    html`class="inline watch-level"`,
  );
}

export function notificationRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/notifications', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const signIn = needsPerson(c, web);
    if (signIn) return signIn;
    const got = await call(deps, web, listNotifications, {
      cursor: c.req.query('cursor') || undefined,
    });
    if (!got.ok) return failurePage(c, web, got);
    const items = got.value.notifications.map((n) => {
      const view = { ...n, unread: !n.read_at, at: n.created_at };
      const to = notificationHref(web, n);
      const mark = n.read_at
        ? ''
        : postForm(
            web,
            href(web, '/notifications/read'),
            html`<input type="hidden" name="ids" value="${n.id}"><button type="submit" class="link">Mark read<span class="visually-hidden">: ${n.text}</span></button>`,
            html`class="inline"`,
          );
      return html`<li class="${n.read_at ? 'read' : 'unread'}">${to ? html`<a href="${to}">${notificationContent(view)}</a>` : html`<div>${notificationContent(view)}</div>`}${n.read_at ? '' : html` <span class="badge">New</span>`} ${mark}</li>`;
    });
    const all = got.value.unread_count
      ? postForm(
          web,
          href(web, '/notifications/read'),
          html`<input type="hidden" name="all" value="true"><button type="submit" class="secondary">Mark all read</button>`,
        )
      : '';
    const body = html`<h1>Notifications</h1><p>${got.value.unread_count} unread · <a href="${href(web, '/account/notifications')}">Preferences</a></p>${all}
${items.length ? html`<ul class="notifications notification-list">${items}</ul>` : html`<p>Nothing yet. Replies to your topics, @mentions of you and news of what you watch show here.</p>`}${moreLink(web, '/notifications', {}, got.value.next_cursor, 'Older notifications')}`;
    return page(c, web, { title: 'Notifications', body });
  });

  app.post('/notifications/read', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const all = text(form, 'all') === 'true';
    const got = await call(
      deps,
      web,
      markNotificationsRead,
      all ? { all: true } : { ids: [text(form, 'ids')] },
    );
    if (!got.ok) return failurePage(c, web, got);
    // The bell's menu sends the page it was opened on: back there (a path of this site only).
    const back = text(form, 'back');
    const to = /^\/(?![/\\])/.test(back) ? back : href(web, '/notifications');
    return redirectWith(c, deps, to, {
      kind: 'ok',
      text: all ? 'All notifications are marked read.' : 'Marked read.',
    });
  });

  app.post('/t/:slug/level', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const got = await call(deps, web, setWatchLevel, { topic: slug, level: text(form, 'level') });
    if (!got.ok) return failurePage(c, web, got, 'The level was not changed');
    return redirectWith(c, deps, href(web, `/t/${slug}`), {
      kind: 'ok',
      text: `Notifications for this topic: ${got.value.level}.`,
    });
  });

  app.get('/account/notifications', async (c) => {
    const web = c.get('web');
    const signIn = needsPerson(c, web);
    if (signIn) return signIn;
    if (web.where.kind !== 'community')
      return page(c, web, {
        title: 'Notification preferences',
        body: html`<h1>Notification preferences</h1><p>Notifications are kept per community: open this page on the community you want to set them for.</p>`,
      });
    const [prefs, categories] = await Promise.all([
      call(deps, web, getNotificationPreferences, {}),
      call(deps, web, listCategories, {}),
    ]);
    if (!prefs.ok) return failurePage(c, web, prefs);
    if (!categories.ok) return failurePage(c, web, categories);
    const levelOf = new Map(prefs.value.categories.map((x) => [x.category_id, x.level]));
    const rows = categories.value.categories.map((cat) =>
      postForm(
        web,
        href(web, '/account/notifications/category'),
        html`<input type="hidden" name="category" value="${cat.slug}">${field({ name: `level-${cat.slug}`, label: cat.name, options: LEVELS, value: levelOf.get(cat.id) ?? 'normal' })}<button type="submit" class="secondary">Save<span class="visually-hidden"> ${cat.name}</span></button>`,
        html`class="category-level"`,
      ),
    );
    const handle = prefs.value.handle ?? '';
    const body = html`<h1>Notification preferences</h1>
<h2>E-mail</h2>${postForm(
      web,
      href(web, '/account/notifications'),
      html`${field({ name: 'email_frequency', label: 'E-mail me about this community', options: EMAIL, value: prefs.value.email })}<div class="actions"><button type="submit">Save</button></div>`,
    )}
<h2>Categories</h2><p class="meta">Watching a category notifies you of every new topic and post in it; muting it silences its topics (a level you set on a topic comes first).</p>${rows}
<h2>Your @handle</h2>${postForm(
      web,
      href(web, '/account/handle'),
      html`${field({ name: 'handle', label: 'Handle', value: handle, hint: 'Others @mention you by it: 2-30 characters of a-z, 0-9, "_" and "-".', required: true })}<div class="actions"><button type="submit">Change handle</button></div>`,
    )}`;
    return page(c, web, { title: 'Notification preferences', body });
  });

  app.post('/account/notifications', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const got = await call(deps, web, setNotificationPreferences, {
      email_frequency: text(form, 'email_frequency'),
    });
    if (!got.ok) return failurePage(c, web, got, 'The preference was not saved');
    return redirectWith(c, deps, href(web, '/account/notifications'), {
      kind: 'ok',
      text: 'Your e-mail preference is saved.',
    });
  });

  app.post('/account/notifications/category', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const category = text(form, 'category');
    const got = await call(deps, web, setWatchLevel, {
      category,
      level: text(form, `level-${category}`),
    });
    if (!got.ok) return failurePage(c, web, got, 'The level was not changed');
    return redirectWith(c, deps, href(web, '/account/notifications'), {
      kind: 'ok',
      text: `Notifications for the category: ${got.value.level}.`,
    });
  });

  app.post('/account/handle', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const got = await call(deps, web, setMyHandle, { handle: text(form, 'handle') });
    if (!got.ok) return failurePage(c, web, got, 'The handle was not changed');
    return redirectWith(c, deps, href(web, '/account/notifications'), {
      kind: 'ok',
      text: `Your handle is now @${got.value.handle}.`,
    });
  });
}
