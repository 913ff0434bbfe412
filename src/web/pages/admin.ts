// Administration of a community: the overview and the sub-navigation of its pages (members are in
// ./admin-members.ts, agents in ./admin-agents.ts, webhooks in ./admin-webhooks.ts).
import type { Context, Hono } from 'hono';
import { getCommunitySettings } from '../../operations/web-communities.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { postForm } from '../html.ts';
import { failurePage, needsPerson, notFound, page } from '../respond.ts';
import { html, type Html } from '../template.ts';

export const ADMIN_SECTIONS = [
  {
    path: '/admin/agents',
    label: 'Agents and keys',
    about: 'Create agents with scopes, mint and revoke their keys.',
  },
  {
    path: '/admin/members',
    label: 'Members',
    about: 'Who belongs to the community, and their roles.',
  },
  {
    path: '/admin/categories',
    label: 'Categories',
    about: 'Discussion and knowledge-base categories, their order and approval policy.',
  },
  {
    path: '/admin/settings',
    label: 'Settings',
    about: 'Name, visibility, approval policies, the MCP surface agents see.',
  },
  {
    path: '/admin/apps',
    label: 'Connected apps',
    about: 'Apps people connected with OAuth (Claude, ChatGPT, …), and which apps may connect.',
  },
  {
    path: '/admin/webhooks',
    label: 'Webhooks',
    about: 'Endpoints that hear about new topics, posts and decisions, and their delivery log.',
  },
  {
    path: '/admin/mail',
    label: 'Mail',
    about:
      'Whether this Hamlet sends mail, the queue (sent, failed and why), password reset links.',
  },
  { path: '/approvals', label: 'Approval queue', about: 'Writes waiting for a moderator.' },
] as const;

/** The administration pages' sub-navigation. */
export function adminNav(web: Web, current: string): Html {
  return html`<nav aria-label="Administration"><ul class="tabs">${ADMIN_SECTIONS.map((s) => html`<li><a href="${href(web, s.path)}"${s.path === current ? html` aria-current="page"` : ''}>${s.label}</a></li>`)}</ul></nav>`;
}

/** Community pages for signed-in people only; undefined when the handler may go on. */
export function adminGate(c: Context<WebEnv>): Response | undefined {
  const web = c.get('web');
  if (web.where.kind !== 'community') return notFound(c, web);
  return needsPerson(c, web);
}

export function adminRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/admin', async (c) => {
    const gate = adminGate(c);
    if (gate) return gate;
    const web = c.get('web');
    // The same check every admin operation makes: administrators only.
    const allowed = await call(deps, web, getCommunitySettings, {});
    if (!allowed.ok) return failurePage(c, web, allowed);
    const items = ADMIN_SECTIONS.map(
      (s) =>
        html`<li><a href="${href(web, s.path)}">${s.label}</a><br><span class="meta">${s.about}</span></li>`,
    );
    return page(c, web, {
      title: 'Administration',
      body: html`<h1>Administration</h1><ul class="topics">${items}</ul>`,
    });
  });
}

/**
 * The page that asks before an administrator's change takes effect, without JavaScript: the same
 * form again (to `action`, with confirm=yes), and Cancel back to the admin page `section`.
 */
export function confirmPage(
  c: Context<WebEnv>,
  section: string,
  action: string,
  fields: Record<string, string>,
  o: { title: string; text: string; yes: string },
): Response {
  const web = c.get('web');
  const hidden = Object.entries({ ...fields, confirm: 'yes' }).map(
    ([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`,
  );
  const body = html`<h1>${o.title}</h1>${adminNav(web, section)}
<div class="notice error" role="alert"><p>${o.text}</p></div>
${postForm(web, href(web, action), html`${hidden}<div class="actions"><button type="submit" class="danger">${o.yes}</button> <a href="${href(web, section)}">Cancel</a></div>`)}`;
  return page(c, web, { title: o.title, body });
}
