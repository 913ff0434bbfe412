// Administration of a community: the overview, members and their roles (list_members, set_member,
// remove_member), and the place of webhooks and their delivery log (they arrive with the REST API).
import type { Context, Hono } from 'hono';
import { ROLES } from '../../domain/vocabulary.ts';
import { operationNamed } from '../../operations/catalogue.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, type FormData } from '../forms.ts';
import { esc, postForm, when } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';

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
  { path: '/approvals', label: 'Approval queue', about: 'Writes waiting for a moderator.' },
] as const;

/** The administration pages' sub-navigation. */
export function adminNav(web: Web, current: string): string {
  return `<nav aria-label="Administration"><ul class="tabs">${ADMIN_SECTIONS.map((s) => `<li><a href="${esc(href(web, s.path))}"${s.path === current ? ' aria-current="page"' : ''}>${esc(s.label)}</a></li>`).join('')}</ul></nav>`;
}

/** Community pages for signed-in people only; undefined when the handler may go on. */
export function adminGate(c: Context<WebEnv>): Response | undefined {
  const web = c.get('web');
  if (web.where.kind !== 'community') return notFound(c, web);
  return needsPerson(c, web);
}

type MemberOut = {
  person_id: string;
  display_name: string;
  email: string | null;
  role: string;
  since: string;
};

async function membersPage(
  c: Context<WebEnv>,
  deps: WebDeps,
  failure?: Failure,
  values: FormData = {},
): Promise<Response> {
  const web = c.get('web');
  const listed = await call(deps, web, 'community', 'list_members', {});
  if (!listed.ok) return failurePage(c, web, listed);
  const rows = (listed.value.members as MemberOut[])
    .map(
      (m) =>
        `<tr><td><a href="${esc(href(web, `/u/${m.person_id}`))}">${esc(m.display_name)}</a></td><td>${esc(m.email ?? '')}</td><td>${esc(m.role)}</td><td>${when(m.since)}</td><td>${
          m.email
            ? postForm(
                web,
                href(web, '/admin/members/remove'),
                `<input type="hidden" name="email" value="${esc(m.email)}"><button type="submit" class="danger" aria-label="Remove ${esc(m.display_name)}">Remove</button>`,
                'class="inline"',
              )
            : ''
        }</td></tr>`,
    )
    .join('');
  const roleOptions = ROLES.map((r) => ({ value: r, label: r }));
  const email = typeof values.email === 'string' ? values.email : '';
  const body = `<h1>Members</h1>${adminNav(web, '/admin/members')}${failureSummary(failure)}
<div class="table-wrap"><table class="data"><caption class="meta">People of this community</caption><thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col"><span class="meta">Action</span></th></tr></thead><tbody>${rows}</tbody></table></div>
<h2>Add a member or change a role</h2>
${postForm(
  web,
  href(web, '/admin/members'),
  `${field({ name: 'email', label: 'E-mail address of the account', type: 'email', value: email, required: true }, failure?.issues)}
${field({ name: 'role', label: 'Role', options: roleOptions, value: typeof values.role === 'string' ? values.role : 'member' }, failure?.issues)}
<div class="actions"><button type="submit">Save</button></div>`,
)}`;
  return page(c, web, { title: 'Members', body, status: failure ? 400 : 200 });
}

export function adminRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/admin', async (c) => {
    const gate = adminGate(c);
    if (gate) return gate;
    const web = c.get('web');
    // The same check every admin operation makes: administrators only.
    const allowed = await call(deps, web, 'community', 'get_community_settings', {});
    if (!allowed.ok) return failurePage(c, web, allowed);
    const items = ADMIN_SECTIONS.map(
      (s) =>
        `<li><a href="${esc(href(web, s.path))}">${esc(s.label)}</a><br><span class="meta">${esc(s.about)}</span></li>`,
    ).join('');
    return page(c, web, {
      title: 'Administration',
      body: `<h1>Administration</h1><ul class="topics">${items}</ul>`,
    });
  });

  app.get('/admin/members', (c) => adminGate(c) ?? membersPage(c, deps));
  app.post('/admin/members', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const saved = await call(
      deps,
      web,
      'community',
      'set_member',
      formArgs(operationNamed('community', 'set_member')!.input, form),
    );
    if (!saved.ok)
      return saved.code === 'invalid_argument' || saved.code === 'not_found'
        ? membersPage(c, deps, saved, form)
        : failurePage(c, web, saved);
    return redirectWith(c, deps, href(web, '/admin/members'), {
      kind: 'ok',
      text: `${form.email} is now ${saved.value.role}.`,
    });
  });
  app.post('/admin/members/remove', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const removed = await call(
      deps,
      web,
      'community',
      'remove_member',
      formArgs(operationNamed('community', 'remove_member')!.input, form),
    );
    if (!removed.ok)
      return removed.code === 'conflict'
        ? membersPage(c, deps, removed)
        : failurePage(c, web, removed);
    return redirectWith(c, deps, href(web, '/admin/members'), {
      kind: 'ok',
      text: `${form.email} is no longer a member.`,
    });
  });

  // WEBHOOKS: the endpoints, their delivery log and redelivery come with the REST API and webhooks
  // (another branch). Until they land, this page only says so; it is linked from the navigation.
  app.get('/admin/webhooks', async (c) => {
    const gate = adminGate(c);
    if (gate) return gate;
    const web = c.get('web');
    const allowed = await call(deps, web, 'community', 'get_community_settings', {});
    if (!allowed.ok) return failurePage(c, web, allowed);
    return page(c, web, {
      title: 'Webhooks',
      body: `<h1>Webhooks</h1>${adminNav(web, '/admin/webhooks')}<p>Webhooks are not available on this Hamlet yet. Endpoints, their secrets and the delivery log with redelivery will be managed here.</p>`,
    });
  });
}
