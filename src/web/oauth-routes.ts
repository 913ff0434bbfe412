// Web routes of OAuth for people, on a community's host (and in the path form /c/<slug>):
// /oauth/authorize (the consent page and the decision), /account/apps (a person's connected apps),
// /admin/apps (every connection of the community and which apps may connect, for administrators).
// The web's middleware has already found the community and the signed-in person and checked every
// POST's origin and form token; connected apps go through the catalogue like every other page.
import type { Context, Hono } from 'hono';
import { isDomainError } from '../domain/errors.ts';
import { RateLimitedError } from '../domain/identity/rate-limit.ts';
import type { AuthorizationRequest, Checked } from '../domain/oauth/authorize.ts';
import {
  disconnectApp,
  getAppPolicy,
  listConnections,
  listMyConnections,
  setAppPolicy,
} from '../operations/oauth.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from './context.ts';
import { text, type FormData } from './forms.ts';
import { connectionsTable, consentBody, formActionSource, policyForm } from './oauth-pages.ts';
import { adminGate, adminNav } from './pages/admin.ts';
import { copyable, mcpUrls } from './pages/copyable.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from './respond.ts';
import { cspWithFormAction } from './security.ts';
import { html } from './template.ts';

const AUTHORIZATION_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

/** An authorization request that cannot be answered to its client: said to the person instead. */
function cannotConnect(
  c: Context<WebEnv>,
  web: Web,
  message: string,
  status: 400 | 403 | 429,
): Response {
  return page(c, web, {
    title: 'Cannot connect this app',
    status,
    body: html`<h1>Cannot connect this app</h1><div class="notice error" role="alert"><p>${message}</p></div>`,
  });
}

export function oauthRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const flow = deps.services.oauth.authorization;

  /**
   * An authorization request (query on GET, form fields on POST) on the community the page is on,
   * answered in this order so that nothing is looked up for a visitor: malformed parameters are
   * shown at once; visitors sign in first; only then is the client resolved (its metadata document
   * fetched). Returns the request to act on, or the answer already given.
   */
  const authorizationOf = async (
    c: Context<WebEnv>,
    web: Web,
    params: Record<string, unknown>,
  ): Promise<{ request: AuthorizationRequest } | { answer: Response }> => {
    if (web.where.kind !== 'community') return { answer: notFound(c, web) };
    const malformed = flow.malformed(params);
    if (malformed !== undefined) return { answer: cannotConnect(c, web, malformed, 400) };
    const signIn = needsPerson(c, web);
    if (signIn) return { answer: signIn };
    const site = deps.services.oauth.siteOf(web.where.community, {
      pathForm: web.where.base !== '',
      host: c.req.header('host'),
    });
    let checked: Checked;
    try {
      checked = await flow.check(site, params, { personId: web.person!.personId, ip: web.ip });
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      c.header('retry-after', String(err.retryAfterSeconds));
      return { answer: cannotConnect(c, web, err.message, 429) };
    }
    if (checked.ok) return { request: checked.request };
    return {
      answer:
        'show' in checked
          ? cannotConnect(c, web, checked.show, 400)
          : c.redirect(checked.redirect, 303),
    };
  };

  app.get('/oauth/authorize', async (c) => {
    const web = c.get('web');
    const got = await authorizationOf(c, web, c.req.query());
    if ('answer' in got) return got.answer;
    try {
      const grantable = await flow.grantable(got.request, web.person!);
      c.header(
        'content-security-policy',
        cspWithFormAction(formActionSource(got.request.redirectUri)),
      );
      return page(c, web, {
        title: `Connect ${got.request.client.name}`,
        body: consentBody(web, got.request, grantable),
      });
    } catch (err) {
      if (isDomainError(err)) return cannotConnect(c, web, err.message, 403);
      throw err;
    }
  });

  app.post('/oauth/authorize', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    // A parameter the request did not carry has no hidden field: absent, not empty.
    const got = await authorizationOf(
      c,
      web,
      Object.fromEntries(
        AUTHORIZATION_FIELDS.map((k) => [k, typeof form[k] === 'string' ? form[k] : undefined]),
      ),
    );
    if ('answer' in got) return got.answer;
    if (form.decision !== 'allow') return c.redirect(flow.deny(got.request), 303);
    const chosen = ([] as unknown[])
      .concat(form.grant ?? [])
      .filter((v): v is string => typeof v === 'string');
    try {
      return c.redirect(await flow.approve(got.request, web.person!, chosen), 303);
    } catch (err) {
      if (isDomainError(err)) return cannotConnect(c, web, err.message, 403);
      throw err;
    }
  });

  app.get('/account/apps', async (c) => {
    const gate = adminGate(c); // a community page for signed-in people (administrators or not)
    if (gate) return gate;
    const web = c.get('web');
    const mine = await call(deps, web, listMyConnections, {});
    if (!mine.ok) return failurePage(c, web, mine);
    const table = connectionsTable(web, mine.value.connections, {
      everyone: false,
      revokeAction: (id) => href(web, `/account/apps/${id}/revoke`),
    });
    return page(c, web, {
      title: 'Connected apps',
      body: html`<h1>Connected apps</h1><p>Apps that act for you in this community. Disconnecting one stops it at its next request.</p>${table}`,
    });
  });

  app.get('/admin/apps', async (c) => {
    const gate = adminGate(c);
    if (gate) return gate;
    const web = c.get('web');
    const [all, policy] = await Promise.all([
      call(deps, web, listConnections, {}),
      call(deps, web, getAppPolicy, {}),
    ]);
    if (!all.ok) return failurePage(c, web, all);
    if (!policy.ok) return failurePage(c, web, policy);
    const table = connectionsTable(web, all.value.connections, {
      everyone: true,
      revokeAction: (id) => href(web, `/admin/apps/${id}/revoke`),
    });
    const connector = html`<p>Apps such as Claude or ChatGPT connect to this community with its connector URL:</p>${copyable(mcpUrls(deps, web).connector, 'connector-url', 'the connector URL')}`;
    const body = html`<h1>Connected apps</h1>${adminNav(web, '/admin/apps')}${connector}${table}${policyForm(web, policy.value)}`;
    return page(c, web, { title: 'Connected apps', body });
  });

  for (const back of ['/account/apps', '/admin/apps'] as const) {
    app.post(`${back}/:connection/revoke`, async (c) => {
      const gate = adminGate(c);
      if (gate) return gate;
      const web = c.get('web');
      const done = await call(deps, web, disconnectApp, {
        connection: c.req.param('connection'),
      });
      if (!done.ok) return failurePage(c, web, done, 'Could not disconnect');
      const d = done.value.disconnected;
      return redirectWith(c, deps, href(web, back), {
        kind: 'ok',
        text: `${d.client_name} is disconnected${back === '/admin/apps' ? ` for ${d.person.name}` : ''}.`,
      });
    });
  }

  app.post('/admin/apps/policy', async (c) => {
    const gate = adminGate(c);
    if (gate) return gate;
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const domains = text(form, 'domains')
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean);
    const saved = await call(deps, web, setAppPolicy, {
      mode: text(form, 'mode'),
      allowed_domains: domains,
    });
    if (!saved.ok) {
      if (saved.code !== 'invalid_argument') return failurePage(c, web, saved, 'Could not save');
      const policy = { mode: text(form, 'mode'), allowed_domains: domains };
      return page(c, web, {
        title: 'Connected apps',
        status: 400,
        body: html`<h1>Connected apps</h1>${adminNav(web, '/admin/apps')}${policyForm(web, policy, saved)}`,
      });
    }
    return redirectWith(c, deps, href(web, '/admin/apps'), {
      kind: 'ok',
      text: 'Saved which apps may connect.',
    });
  });
}
