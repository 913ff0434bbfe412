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
import { connectionsBody, consentBody, formActionSource, policyForm, type ConnectionOut } from './oauth-pages.ts';
import { operationNamed } from '../operations/catalogue.ts';
import type { Failure, Pipeline } from '../operations/pipeline.ts';

export type OAuthWebDeps = {
  services: Services;
  pipeline: Pipeline;
  /** The client's address (X-Forwarded-For only behind a trusted proxy). */
  clientIp: (c: Context) => string;
  siteOf: (host: string | undefined, forwardedHost: string | undefined, slug?: string) => Promise<OAuthSite | undefined>;
  /** Public URLs are https: the session cookie is then named __Host-hamlet_session. */
  secure: boolean;
};

const STATUS: Record<string, number> = { invalid_argument: 400, unauthorized: 401, forbidden: 403, not_found: 404, conflict: 409, rate_limited: 429 };

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

    // Connected apps: catalogue operations through the call pipeline, as every face calls them.
    const run = (c: Context, r: Req, name: string, args: unknown) =>
      deps.pipeline.invoke(operationNamed('community', name)!, { community: r.site.community, person: r.person, ip: deps.clientIp(c) }, args);
    const failed = (c: Context, title: string, f: Failure) => message(c, title, f.message, STATUS[f.code] ?? 500);

    app.get(`${base}/account/apps`, async (c) => {
      const r = await context(c);
      if (r instanceof Response) return r;
      const mine = await run(c, r, 'list_my_connections', {});
      if (!mine.ok) return failed(c, 'Connected apps', mine);
      return html(c, 'Connected apps', connectionsBody({ title: 'Connected apps', connections: mine.value.connections as ConnectionOut[], everyone: false, csrf: r.csrf, revokeAction: (id) => `${r.base}/account/apps/${id}/revoke` }));
    });

    app.get(`${base}/admin/apps`, async (c) => {
      const r = await context(c);
      if (r instanceof Response) return r;
      const [all, policy] = await Promise.all([run(c, r, 'list_connections', {}), run(c, r, 'get_app_policy', {})]);
      if (!all.ok) return failed(c, 'Not allowed', all);
      if (!policy.ok) return failed(c, 'Not allowed', policy);
      const body = connectionsBody({ title: 'Connected apps in this community', connections: all.value.connections as ConnectionOut[], everyone: true, csrf: r.csrf, revokeAction: (id) => `${r.base}/admin/apps/${id}/revoke` })
        + policyForm({ policy: policy.value as { mode: string; allowed_domains: string[] }, action: `${r.base}/admin/apps/policy`, csrf: r.csrf });
      return html(c, 'Connected apps', body);
    });

    for (const [path, back] of [['/account/apps/:grant/revoke', '/account/apps'], ['/admin/apps/:grant/revoke', '/admin/apps']] as const) {
      app.post(`${base}${path}`, async (c) => {
        const r = await context(c);
        if (r instanceof Response) return r;
        const done = await run(c, r, 'disconnect_app', { connection: c.req.param('grant') ?? '' });
        return done.ok ? c.redirect(`${r.base}${back}`, 303) : failed(c, 'Could not disconnect', done);
      });
    }

    app.post(`${base}/admin/apps/policy`, async (c) => {
      const r = await context(c);
      if (r instanceof Response) return r;
      const form = await formOf(c);
      const domains = (text(form.domains) ?? '').split(',').map((d) => d.trim()).filter(Boolean);
      const saved = await run(c, r, 'set_app_policy', { mode: text(form.mode), allowed_domains: domains });
      return saved.ok ? c.redirect(`${r.base}/admin/apps`, 303) : failed(c, 'Could not save', saved);
    });
  }
}
