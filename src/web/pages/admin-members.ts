// Members and their roles, for administrators (list_members, set_member, remove_member): everyone
// of the community, role holders and people who posted without a role, newest joined first, a page
// of MEMBERS_PER_PAGE at a time (keyset: "Older members"), found by a part of their name, e-mail
// address or handle. Lowering your own role, and removing anyone, first asks for confirmation on a page of
// its own (a form that repeats the change with confirm=yes; no script needed); the membership rule
// itself (only an owner changes an owner, the last owner stays) is the domain's, and its refusals
// show here.
import type { Context, Hono } from 'hono';
import { sanctionControl } from './review.ts';
import { roleAtLeast } from '../../domain/authorization.ts';
import { LIMITS } from '../../domain/fields.ts';
import { isRole, ROLES, type Role } from '../../domain/vocabulary.ts';
import { myEmail } from '../../operations/account-mail.ts';
import { listMembers, removeMember, setMember } from '../../operations/admin.ts';
import type { OutputOf } from '../../operations/operation.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, statusOf, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, text, type FormData } from '../forms.ts';
import { postForm, when } from '../html.ts';
import { failurePage, page, redirectWith } from '../respond.ts';
import { adminGate, adminNav, confirmPage } from './admin.ts';
import { moreLink } from './parts.ts';
import { html, type Html } from '../template.ts';

type Member = OutputOf<typeof listMembers>['members'][number];

const MEMBERS_PER_PAGE = 25;

/** The actions of one row: remove a role holder, give a role to someone without one, sanctions. */
function actions(web: Web, m: Member): Html {
  const form = (fields: Html | string, button: Html) =>
    postForm(
      web,
      href(web, m.role ? '/admin/members/remove' : '/admin/members'),
      html`${fields}${button}`,
      html`class="inline"`,
    );
  const email = m.email ? html`<input type="hidden" name="email" value="${m.email}">` : '';
  const main = !m.email
    ? ''
    : m.role
      ? form(
          email,
          html`<button type="submit" class="danger" aria-label="Remove ${m.display_name}">Remove</button>`,
        )
      : form(
          html`${email}<input type="hidden" name="role" value="member">`,
          html`<button type="submit" class="secondary" aria-label="Make ${m.display_name} a member">Make member</button>`,
        );
  const sanction =
    m.role === null || m.role === 'member'
      ? sanctionControl(web, 'person', m.person_id, m.display_name, '/admin/members')
      : '';
  return html`<div class="row-actions">${main}${sanction}</div>`;
}

function memberRow(web: Web, m: Member): Html {
  const role = m.role ? m.role : html`<span class="meta">no role (posted here)</span>`;
  return html`<tr><th scope="row" data-label="Name"><a href="${href(web, `/u/${m.handle ?? m.person_id}`)}">${m.display_name}</a></th><td data-label="E-mail">${m.email ?? ''}</td><td data-label="Role">${role}</td><td data-label="Joined">${when(m.since)}</td><td data-label="Actions">${actions(web, m)}</td></tr>`;
}

async function membersPage(
  c: Context<WebEnv>,
  deps: WebDeps,
  failure?: Failure,
  values: FormData = {},
): Promise<Response> {
  const web = c.get('web');
  const cursor = c.req.query('cursor') || undefined;
  const query = (c.req.query('q') ?? '').trim().slice(0, LIMITS.memberQuery.max);
  const listed = await call(deps, web, listMembers, {
    limit: MEMBERS_PER_PAGE,
    ...(cursor ? { cursor } : {}),
    ...(query ? { query } : {}),
  });
  if (!listed.ok) return failurePage(c, web, listed);
  const rows = listed.value.members.map((m) => memberRow(web, m));
  const roleOptions = ROLES.map((r) => ({ value: r, label: r }));
  const email = typeof values.email === 'string' ? values.email : '';
  const first =
    cursor || query
      ? html`<p><a href="${href(web, '/admin/members')}">Back to the newest members</a></p>`
      : '';
  const search = html`<form method="get" action="${href(web, '/admin/members')}" role="search" class="inline-search">${field({ name: 'q', id: 'members-q', label: 'Find a member', hint: 'A part of the name, e-mail address or @handle.', value: query, type: 'search' })}<div class="actions"><button type="submit" class="secondary">Find</button></div></form>`;
  const none = query
    ? html`<p>No member's name, e-mail address or handle contains “${query}”.</p>`
    : html`<p>No members yet.</p>`;
  const body = html`<h1>Members</h1>${adminNav(web, '/admin/members')}${failureSummary(failure)}
<p class="meta">Everyone who holds a role here, and everyone who posted here without one; newest first.</p>
${search}${first}${
    rows.length
      ? html`<div class="table-wrap"><table class="data cards" id="members"><caption class="meta">People of this community</caption><thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="meta">Actions</span></th></tr></thead><tbody>${rows}</tbody></table></div>`
      : none
  }${moreLink(web, '/admin/members', query ? { q: query } : {}, listed.value.next_cursor, 'Older members')}
<h2 id="add">Add a member or change a role</h2>
<p class="meta">Only an owner makes, changes or removes an owner; the last owner stays.</p>
${postForm(
  web,
  href(web, '/admin/members'),
  html`${field({ name: 'email', label: 'E-mail address of the account', type: 'email', value: email, required: true }, failure?.issues)}
${field({ name: 'role', label: 'Role', options: roleOptions, value: typeof values.role === 'string' ? values.role : 'member' }, failure?.issues)}
<div class="actions"><button type="submit">Save</button></div>`,
)}`;
  return page(c, web, {
    title: 'Members',
    body,
    status: failure ? (failure.stage === 'validate' ? 400 : statusOf(failure)) : 200,
  });
}

/** Whether `email` is the signed-in person's own address (the list may not hold them on its page). */
async function isMine(deps: WebDeps, web: Web, email: string): Promise<boolean> {
  if (!web.person) return false;
  const me = await call(deps, web, myEmail, {});
  return me.ok && sameEmail(me.value.email, email);
}

/** The signed-in person's role here, as loaded with their session. */
function myRole(web: Web): Role | undefined {
  return web.where.kind === 'community' ? web.person?.roles?.[web.where.community.id] : undefined;
}

const sameEmail = (a: string | null, b: string) =>
  a !== null && a.toLowerCase() === b.trim().toLowerCase();

export function memberAdminRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/admin/members', (c) => adminGate(c) ?? membersPage(c, deps));

  app.post('/admin/members', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const email = text(form, 'email');
    const role = text(form, 'role');
    const mine = myRole(web);
    if (text(form, 'confirm') !== 'yes' && isRole(role) && mine && !roleAtLeast(role, mine)) {
      if (await isMine(deps, web, email)) {
        const slug = web.where.kind === 'community' ? web.where.community.slug : '';
        const leaves = !roleAtLeast(role, 'admin')
          ? ` You will no longer be able to administer "${slug}", and only another administrator can give the role back.`
          : '';
        return confirmPage(
          c,
          '/admin/members',
          '/admin/members',
          { email, role },
          {
            title: 'Change your own role?',
            text: `You are about to change your own role in "${slug}" from ${mine} to ${role}.${leaves}`,
            yes: `Yes, make me ${role}`,
          },
        );
      }
    }
    const saved = await call(deps, web, setMember, formArgs(setMember, form));
    if (!saved.ok && saved.code === 'not_found')
      // People get an account by signing up; the operator's command is not theirs to run.
      return membersPage(
        c,
        deps,
        {
          ...saved,
          message: `No account uses ${email} yet. Ask them to sign up first (the Sign up link at the top of every page), then add them here.`,
        },
        form,
      );
    if (!saved.ok)
      return saved.code === 'unauthorized'
        ? failurePage(c, web, saved)
        : membersPage(c, deps, saved, form);
    return redirectWith(c, deps, href(web, '/admin/members'), {
      kind: 'ok',
      text: `${email} is now ${saved.value.role}.`,
    });
  });

  app.post('/admin/members/remove', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const email = text(form, 'email');
    if (text(form, 'confirm') !== 'yes') {
      const slug = web.where.kind === 'community' ? web.where.community.slug : '';
      const self = await isMine(deps, web, email);
      return confirmPage(
        c,
        '/admin/members',
        '/admin/members/remove',
        { email },
        self
          ? {
              title: 'Leave this community?',
              text: `Remove yourself from "${slug}"? You lose your role here at once, and only an administrator can add you again.`,
              yes: 'Yes, remove me',
            }
          : {
              title: 'Remove this member?',
              text: `Remove ${email} from "${slug}"? They lose their role here at once (a private community becomes invisible to them).`,
              yes: `Yes, remove ${email}`,
            },
      );
    }
    const removed = await call(deps, web, removeMember, formArgs(removeMember, form));
    if (!removed.ok)
      return removed.code === 'unauthorized'
        ? failurePage(c, web, removed)
        : membersPage(c, deps, removed);
    return redirectWith(c, deps, href(web, '/admin/members'), {
      kind: 'ok',
      text: `${email} is no longer a member.`,
    });
  });
}
