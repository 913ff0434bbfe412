// A person's own account, on any host: change the password (every session ends; this browser gets
// a fresh one), and their user keys (hmlt_u_) for agents acting on their behalf on the network:
// mint (the key is shown once, on the answer to the form, never again), list by prefix, revoke.
import type { Context, Hono } from 'hono';
import { LIMITS } from '../../domain/fields.ts';
import { listMyKeys, mintMyKey, revokeMyKey } from '../../operations/account.ts';
import type { OutputOf } from '../../operations/operation.ts';
import { changePassword } from '../../operations/people.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, statusOf, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, type FormData } from '../forms.ts';
import { postForm, when } from '../html.ts';
import { failurePage, needsPerson, page, redirectWith } from '../respond.ts';
import { setSessionCookie } from '../session.ts';
import { emailSection } from './email.ts';
import { copyable } from './copyable.ts';
import { html, type Html } from '../template.ts';

/** A key as listed (list_my_keys; an agent's key carries its agent_id too). */
type Key = OutputOf<typeof listMyKeys>['keys'][number];

/** The attributes of a key-lifetime field: the limits of the field table. */
export const daysAttrs = html`min="${LIMITS.expiresInDays.min}" max="${LIMITS.expiresInDays.max}" inputmode="numeric"`;

/** A table of keys by prefix, with their dates and a revoke button for live ones. */
export function keyTable(web: Web, keys: Key[], revokeAction: string, caption: string): Html {
  if (!keys.length) return html`<p>No keys yet.</p>`;
  const rows = keys.map((k) => {
    const state = k.revoked_at
      ? html`revoked ${when(k.revoked_at)}`
      : k.expires_at && Date.parse(k.expires_at) < Date.now()
        ? html`expired ${when(k.expires_at)}`
        : 'live';
    const revoke = k.revoked_at
      ? ''
      : postForm(
          web,
          revokeAction,
          html`<input type="hidden" name="key" value="${k.id}"><button type="submit" class="danger" aria-label="Revoke key ${k.prefix}">Revoke</button>`,
          html`class="inline"`,
        );
    return html`<tr><td data-label="Key"><code>${k.prefix}…</code></td><td data-label="Created">${when(k.created_at)}</td><td data-label="Last used">${k.last_used_at ? when(k.last_used_at) : 'never'}</td><td data-label="Expires">${k.expires_at ? when(k.expires_at) : 'never'}</td><td data-label="State">${state}</td><td${revoke ? html` data-label="Action"` : ''}>${revoke}</td></tr>`;
  });
  return html`<div class="table-wrap"><table class="data cards"><caption class="meta">${caption}</caption><thead><tr><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">State</th><th scope="col"><span class="meta">Action</span></th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** The key itself, once: with what to do with it. */
export function shownOnce(key: string, what: string): Html {
  return html`<div class="notice ok" role="status"><p>${what} Copy it now: it is shown only this once.</p>${copyable(key, 'new-key', 'the value shown once', true)}</div>`;
}

async function accountPage(
  deps: WebDeps,
  web: Web,
  extra: { minted?: string; failure?: Failure; passwordFailure?: Failure } = {},
): Promise<{ ok: true; body: Html } | { ok: false; failure: Failure }> {
  const keys = await call(deps, web, listMyKeys, {});
  if (!keys.ok) return { ok: false, failure: keys };
  const prefs =
    web.where.kind === 'community'
      ? html`<p><a href="${href(web, '/account/notifications')}">Notification preferences and your @handle</a> · <a href="${href(web, '/bookmarks')}">Your bookmarks</a></p>`
      : '';
  const body = html`<h1>Your account</h1>${prefs}
${await emailSection(deps, web)}
<h2>Password</h2>${failureSummary(extra.passwordFailure)}
${postForm(
  web,
  href(web, '/account/password'),
  html`${field({ name: 'current_password', label: 'Current password', type: 'password', required: true, autocomplete: 'current-password' }, extra.passwordFailure?.issues)}
${field({ name: 'new_password', label: 'New password', hint: `At least ${LIMITS.password.min} characters. Every other session of yours ends.`, type: 'password', required: true, autocomplete: 'new-password' }, extra.passwordFailure?.issues)}
<div class="actions"><button type="submit">Change password</button></div>`,
)}
${web.where.kind === 'community' ? html`<h2>Connected apps</h2>\n<p>Apps such as Claude or ChatGPT that you connected to ${web.where.community.name}: <a href="${href(web, '/account/apps')}">see and disconnect them</a>.</p>` : ''}
<h2>User keys</h2>
<p>A user key (<code>hmlt_u_…</code>) lets an agent ask questions on the network as you. Keep it secret; revoke it when the agent no longer needs it.</p>
${extra.minted ? shownOnce(extra.minted, 'Your new user key.') : ''}${failureSummary(extra.failure)}
${keyTable(web, keys.value.keys, href(web, '/account/keys/revoke'), 'Your user keys')}
${postForm(
  web,
  href(web, '/account/keys'),
  html`${field({ name: 'expires_in_days', label: 'Expires after (days)', hint: 'Leave empty for a key that does not expire.', type: 'number', attrs: daysAttrs }, extra.failure?.issues)}
<div class="actions"><button type="submit">Mint a user key</button></div>`,
)}`;
  return { ok: true, body };
}

export function accountRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const show = async (
    c: Context<WebEnv>,
    extra: Parameters<typeof accountPage>[2] = {},
    status = 200,
  ) => {
    const web = c.get('web');
    const built = await accountPage(deps, web, extra);
    if (!built.ok) return failurePage(c, web, built.failure);
    if (extra.minted) c.header('cache-control', 'no-store');
    return page(c, web, { title: 'Your account', body: built.body, status });
  };

  app.get('/account', async (c) => needsPerson(c, c.get('web')) ?? show(c));

  app.post('/account/keys', async (c) => {
    const web = c.get('web');
    const gate = needsPerson(c, web);
    if (gate) return gate;
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const minted = await call(deps, web, mintMyKey, formArgs(mintMyKey, form));
    if (!minted.ok) return show(c, { failure: minted }, 400);
    return show(c, { minted: minted.value.key });
  });

  app.post('/account/keys/revoke', async (c) => {
    const web = c.get('web');
    const gate = needsPerson(c, web);
    if (gate) return gate;
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const revoked = await call(deps, web, revokeMyKey, formArgs(revokeMyKey, form));
    if (!revoked.ok) return show(c, { failure: revoked }, 400);
    return redirectWith(c, deps, href(web, '/account'), {
      kind: 'ok',
      text: 'The key was revoked: it stopped working at once.',
    });
  });

  app.post('/account/password', async (c) => {
    const web = c.get('web');
    const gate = needsPerson(c, web);
    if (gate) return gate;
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const changed = await call(deps, web, changePassword, formArgs(changePassword, form));
    if (!changed.ok) return show(c, { passwordFailure: changed }, statusOf(changed));
    // Every session ended with the change: this browser continues in a new one.
    const session = await deps.services.accounts.createWebSession(web.person!.personId);
    setSessionCookie(c, deps, session.token);
    return redirectWith(c, deps, href(web, '/account'), {
      kind: 'ok',
      text: 'Your password was changed. Other sessions were signed out.',
    });
  });
}
