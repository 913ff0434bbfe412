// Members and their roles, for administrators (list_members, set_member, remove_member). Lowering
// your own role, and removing anyone, first asks for confirmation on a page of its own (a form that
// repeats the change with confirm=yes; no script needed); the membership rule itself (only an
// owner changes an owner, the last owner stays) is the domain's, and its refusals show here.
import type { Context, Hono } from 'hono';
import { sanctionControl } from './review.ts';
import { roleAtLeast } from '../../domain/authorization.ts';
import { isRole, ROLES } from '../../domain/vocabulary.ts';
import { listMembers, removeMember, setMember } from '../../operations/admin.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, statusOf, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, text, type FormData } from '../forms.ts';
import { esc, postForm, when } from '../html.ts';
import { failurePage, page, redirectWith } from '../respond.ts';
import { adminGate, adminNav, confirmPage } from './admin.ts';

async function members(deps: WebDeps, web: Web) {
  const listed = await call(deps, web, listMembers, {});
  return listed.ok ? { ok: true as const, members: listed.value.members } : listed;
}

async function membersPage(
  c: Context<WebEnv>,
  deps: WebDeps,
  failure?: Failure,
  values: FormData = {},
): Promise<Response> {
  const web = c.get('web');
  const listed = await members(deps, web);
  if (!listed.ok) return failurePage(c, web, listed);
  const rows = listed.members
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
        }${m.role === 'member' ? sanctionControl(web, 'person', m.person_id, m.display_name, '/admin/members') : ''}</td></tr>`,
    )
    .join('');
  const roleOptions = ROLES.map((r) => ({ value: r, label: r }));
  const email = typeof values.email === 'string' ? values.email : '';
  const body = `<h1>Members</h1>${adminNav(web, '/admin/members')}${failureSummary(failure)}
<div class="table-wrap"><table class="data"><caption class="meta">People of this community</caption><thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col"><span class="meta">Action</span></th></tr></thead><tbody>${rows}</tbody></table></div>
<h2>Add a member or change a role</h2>
<p class="meta">Only an owner makes, changes or removes an owner; the last owner stays.</p>
${postForm(
  web,
  href(web, '/admin/members'),
  `${field({ name: 'email', label: 'E-mail address of the account', type: 'email', value: email, required: true }, failure?.issues)}
${field({ name: 'role', label: 'Role', options: roleOptions, value: typeof values.role === 'string' ? values.role : 'member' }, failure?.issues)}
<div class="actions"><button type="submit">Save</button></div>`,
)}`;
  return page(c, web, {
    title: 'Members',
    body,
    status: failure ? (failure.stage === 'validate' ? 400 : statusOf(failure)) : 200,
  });
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
    if (text(form, 'confirm') !== 'yes' && web.person && isRole(role)) {
      const listed = await members(deps, web);
      if (!listed.ok) return failurePage(c, web, listed);
      const mine = listed.members.find(
        (m) => m.person_id === web.person!.personId && sameEmail(m.email, email),
      );
      if (mine && isRole(mine.role) && !roleAtLeast(role, mine.role)) {
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
            text: `You are about to change your own role in "${slug}" from ${mine.role} to ${role}.${leaves}`,
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
      const listed = await members(deps, web);
      if (!listed.ok) return failurePage(c, web, listed);
      const slug = web.where.kind === 'community' ? web.where.community.slug : '';
      const self = listed.members.some(
        (m) => m.person_id === web.person?.personId && sameEmail(m.email, email),
      );
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
