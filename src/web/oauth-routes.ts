// Web routes of OAuth for people, on a community's host (and in the path form /c/<slug>):
// /oauth/authorize (the consent page and the decision), /account/apps (a person's connected apps),
// /admin/apps (every grant of the community and which apps may connect, for administrators).
// Signed-in people only (the session cookie); every POST must come from our own page with its
// form token.
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { PersonActor } from '../domain/actor.ts';
import { isDomainError } from '../domain/errors.ts';
import type { OAuthSite } from '../domain/oauth/site.ts';
import type { Services } from '../services.ts';
import { esc, page } from './html.ts';
import { connectionsBody, consentBody, formActionSource, policyForm } from './oauth-pages.ts';

export type OAuthWebDeps = {
  services: Services;
  siteOf: (host: string | undefined, forwardedHost: string | undefined, slug?: string) => Promise<OAuthSite | undefined>;
  /** Public URLs are https: the session cookie is then named __Host-hamlet_session. */
  secure: boolean;
};

const CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

type Req = { site: OAuthSite; base: string; person?: PersonActor; token?: string; csrf: string };

export function mountOAuthWeb(app: Hono, deps: OAuthWebDeps): void {
  const cookie = deps.secure ? '__Host-hamlet_session' : 'hamlet_session';

  const html = (c: Context, title: string, body: string, o: { status?: number; formAction?: string } = {}) => {
    c.header('content-security-policy', `${CSP}; form-action 'self'${o.formAction ? ` ${o.formAction}` : ''}`);
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'same-origin');
    c.header('x-frame-options', 'DENY');
    c.header('cache-control', 'no-store');
    return c.html(page({ title, body }), (o.status ?? 200) as 200);
  };
  const message = (c: Context, title: string, text: string, status: number) => html(c, title, `<h1>${esc(title)}</h1><p>${esc(text)}</p>`, { status });

  /** Who and where; a redirect to sign-in for visitors; undefined when the host is no community. */
  const context = async (c: Context): Promise<Req | Response> => {
    const slug = c.req.param('community');
    const site = await deps.siteOf(c.req.header('host'), c.req.header('x-forwarded-host'), slug);
    if (!site) return message(c, 'Not found', 'There is nothing at this address.', 404);
    const base = slug ? `/c/${site.community.slug}` : '';
    const token = getCookie(c, cookie) || undefined;
    const person = await deps.services.accounts.resolveWebSession(token);
    const csrf = token && person ? deps.services.accounts.csrfToken(token) : '';
    if (!person) {
      const url = new URL(c.req.url);
      return c.redirect(`${base}/signin?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
    }
    if (c.req.method === 'POST') {
      const form = await c.req.parseBody({ all: true });
      const crossSite = c.req.header('sec-fetch-site') === 'cross-site';
      if (crossSite || !deps.services.accounts.verifyCsrf(token, typeof form._csrf === 'string' ? form._csrf : undefined)) {
        return message(c, 'Form expired', 'This form was opened in another session or sent from another site. Go back, reload the page and send it again.', 403);
      }
    }
    return { site, base, person, token, csrf };
  };
  const formOf = async (c: Context) => c.req.parseBody({ all: true });
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

  for (const base of ['', '/c/:community']) {
    app.get(`${base}/oauth/authorize`, async (c) => {
      const r = await context(c);
      if (r instanceof Response) return r;
      const checked = await deps.services.oauth.authorization.check(r.site, c.req.query());
      if (!checked.ok) return 'show' in checked ? message(c, 'Cannot connect this app', checked.show, 400) : c.redirect(checked.redirect, 303);
      try {
        const grantable = await deps.services.oauth.authorization.grantable(checked.request, r.person!);
        const body = consentBody({ request: checked.request, grantable, personName: r.person!.displayName, action: `${r.base}/oauth/authorize`, csrf: r.csrf, appsHref: `${r.base}/account/apps` });
        return html(c, `Connect ${checked.request.client.name}`, body, { formAction: formActionSource(checked.request.redirectUri) });
      } catch (err) {
        if (isDomainError(err)) return message(c, 'Cannot connect this app', err.message, 403);
        throw err;
      }
    });

    app.post(`${base}/oauth/authorize`, async (c) => {
      const r = await context(c);
      if (r instanceof Response) return r;
      const form = await formOf(c);
      const params = Object.fromEntries(['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource'].map((k) => [k, text(form[k])]));
      const checked = await deps.services.oauth.authorization.check(r.site, params);
      if (!checked.ok) return 'show' in checked ? message(c, 'Cannot connect this app', checked.show, 400) : c.redirect(checked.redirect, 303);
      if (form.decision !== 'allow') return c.redirect(deps.services.oauth.authorization.deny(checked.request), 303);
      const chosen = ([] as unknown[]).concat(form.grant ?? []).filter((v): v is string => typeof v === 'string');
      try {
        return c.redirect(await deps.services.oauth.authorization.approve(checked.request, r.person!, chosen), 303);
      } catch (err) {
        if (isDomainError(err)) return message(c, 'Cannot connect this app', err.message, 403);
        throw err;
      }
    });

    app.get(`${base}/account/apps`, async (c) => {
      const r = await context(c);
      if (r instanceof Response) return r;
      const connections = await deps.services.oauth.connections.mine(r.person!, r.site.community);
      return html(c, 'Connected apps', connectionsBody({ title: 'Connected apps', connections, everyone: false, csrf: r.csrf, revokeAction: (id) => `${r.base}/account/apps/${id}/revoke` }));
    });

    app.get(`${base}/admin/apps`, async (c) => {
      const r = await context(c);
      if (r instanceof Response) return r;
      try {
        const connections = await deps.services.oauth.connections.all(r.person!, r.site.community);
        const policy = await deps.services.oauth.clients.policy(r.site.community);
        const body = connectionsBody({ title: 'Connected apps in this community', connections, everyone: true, csrf: r.csrf, revokeAction: (id) => `${r.base}/admin/apps/${id}/revoke` })
          + policyForm({ policy, action: `${r.base}/admin/apps/policy`, csrf: r.csrf });
        return html(c, 'Connected apps', body);
      } catch (err) {
        if (isDomainError(err)) return message(c, 'Not allowed', err.message, 403);
        throw err;
      }
    });

    for (const [path, back] of [['/account/apps/:grant/revoke', '/account/apps'], ['/admin/apps/:grant/revoke', '/admin/apps']] as const) {
      app.post(`${base}${path}`, async (c) => {
        const r = await context(c);
        if (r instanceof Response) return r;
        try {
          await deps.services.oauth.connections.revoke(r.person!, r.site.community, c.req.param('grant') ?? '');
          return c.redirect(`${r.base}${back}`, 303);
        } catch (err) {
          if (isDomainError(err)) return message(c, 'Could not disconnect', err.message, err.code === 'not_found' ? 404 : 403);
          throw err;
        }
      });
    }

    app.post(`${base}/admin/apps/policy`, async (c) => {
      const r = await context(c);
      if (r instanceof Response) return r;
      const form = await formOf(c);
      const domains = (text(form.domains) ?? '').split(',').map((d) => d.trim()).filter(Boolean);
      try {
        await deps.services.oauth.clients.setPolicy(r.person!, r.site.community, { mode: text(form.mode) ?? '', allowedDomains: domains });
        return c.redirect(`${r.base}/admin/apps`, 303);
      } catch (err) {
        if (isDomainError(err)) return message(c, 'Could not save', err.message, err.code === 'invalid_argument' ? 400 : 403);
        throw err;
      }
    });
  }
}
