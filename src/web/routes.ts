// The web for people, on a community's host (`/`, `/t/<topic>`, …); on the apex host the same paths
// are the network's pages. The path form `/c/<slug>/…` arrives here already resolved by the HTTP
// front as the community's host, and links keep that form (communityPath).
// Every request passes here first: security headers, the static assets, the per-address budget,
// who is signed in, and for every POST the origin and form-token checks.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { LIMITS } from '../domain/fields.ts';
import { RateLimitedError } from '../domain/identity/rate-limit.ts';
import { addressedByPath, communityPath } from '../domain/urls.ts';
import { assetAt } from './assets.ts';
import type { Web, WebDeps, WebEnv, Where } from './context.ts';
import { barePage } from './html.ts';
import { page } from './respond.ts';
import { formIsOurs, liveSession, takeFlash, visitorCsrf } from './session.ts';
import { noteActor } from './actor-note.ts';
import { accountRoutes } from './pages/account.ts';
import { adminRoutes } from './pages/admin.ts';
import { categoryAdminRoutes } from './pages/admin-categories.ts';
import { agentAdminRoutes } from './pages/admin-agents.ts';
import { memberAdminRoutes } from './pages/admin-members.ts';
import { webhookAdminRoutes } from './pages/admin-webhooks.ts';
import { approvalRoutes } from './pages/approvals.ts';
import { reviewRoutes } from './pages/review.ts';
import { askRoutes } from './pages/ask.ts';
import { writeRoutes } from './pages/write.ts';
import { authRoutes } from './pages/auth.ts';
import { feedRoutes, mountFavicon } from './pages/feeds.ts';
import { sitemapRoutes } from './pages/sitemaps.ts';
import { handoffRoutes } from './pages/handoff.ts';
import { homeRoutes } from './pages/home.ts';
import { profileRoutes } from './pages/profile.ts';
import { networkRoutes } from './pages/network.ts';
import { searchRoutes } from './pages/search.ts';
import { settingsRoutes } from './pages/settings.ts';
import { topicRoutes } from './pages/topic.ts';
import { notificationRoutes } from './pages/notifications.ts';
import { bookmarkRoutes } from './pages/bookmarks.ts';
import { oauthRoutes } from './oauth-routes.ts';
import { passwordRoutes } from './pages/password.ts';
import { expiredBody } from './pages/kept-text.ts';
import type { FormData } from './forms.ts';
import { emailRoutes } from './pages/email.ts';
import { mailAdminRoutes } from './pages/admin-mail.ts';
import { uploadRoutes } from './pages/uploads.ts';
import { bellMenu } from './pages/bell.ts';
import { bytesText } from '../domain/writes/upload-file.ts';
import { html, markupOf } from './template.ts';

export type { WebDeps } from './context.ts';

/** Form bodies: the longest body the field table allows, at up to 4 bytes a character, and room to spare. */
const MAX_FORM_BYTES = 4 * Math.max(LIMITS.questionBody.max, LIMITS.replyBody.max) + 64 * 1024;

/** The stylesheet, scripts and icon: on every host, known or not (the unknown-host page is styled too). */
export function mountStatic(app: Hono): void {
  mountFavicon(app);
  app.get('/assets/:file', (c) => {
    const a = assetAt(new URL(c.req.url).pathname);
    if (!a) return c.text('Not found', 404);
    c.header('cache-control', 'public, max-age=31536000, immutable');
    return c.body(a.body, 200, { 'content-type': a.type });
  });
}

/**
 * The forms that carry a file (a reply's, a question's or an article's Attach, the composer's
 * dropped or pasted image, a profile's picture): only they take a file's size more.
 */
const TAKES_FILES = /^(\/t\/[^/]+\/reply|\/ask|\/write|\/upload|\/profile)$/;

export function mountWeb(app: Hono, deps: WebDeps): void {
  const web = new Hono<WebEnv>();
  const formLimit = bodyLimit({
    maxSize: MAX_FORM_BYTES,
    onError: (c) =>
      c.html(markupOf(barePage('Too large', 'The form is larger than any post may be.')), 413),
  });
  const { maxBytes } = deps.services.uploads.limits();
  const fileLimit = bodyLimit({
    maxSize: MAX_FORM_BYTES + maxBytes,
    onError: (c) =>
      c.html(
        markupOf(
          barePage(
            'Too large',
            `The file is larger than the ${bytesText(maxBytes)} a file may be.`,
          ),
        ),
        413,
      ),
  });
  web.use('*', (c, next) => (TAKES_FILES.test(c.req.path) ? fileLimit : formLimit)(c, next));
  web.use('*', async (c, next) => {
    const where = await whereOf(c, deps);
    if (!where)
      return c.html(
        markupOf(barePage('Not found', 'There is nothing at this address, or it is not public.')),
        404,
      );
    const ip = deps.clientIp(c);
    const session = await liveSession(c, deps);
    // The path as the visitor addressed it (the path form's prefix included), for "come back here".
    const url = new URL(c.req.url);
    const ctx: Web = {
      where,
      person: session?.person,
      ip,
      path: where.base + url.pathname + url.search,
      canonical:
        deps.canonicalOrigin(where.kind === 'community' ? where.community.slug : null) +
        url.pathname +
        url.search,
      csrf: session ? deps.services.accounts.csrfToken(session.token) : visitorCsrf(c, deps),
    };
    c.set('web', ctx);
    if (ctx.person) noteActor(c, ctx.person);
    try {
      await deps.services.rateLimits.checkIp(ip);
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      c.header('retry-after', String(err.retryAfterSeconds));
      return page(c, ctx, {
        title: 'Slow down',
        status: 429,
        body: html`<h1>Slow down</h1><p>${err.message}</p>`,
      });
    }
    if (c.req.method === 'POST') {
      const form = await c.req.parseBody({ all: true });
      // A mail client's one-click unsubscribe (RFC 8058) comes from no page of ours: the link's
      // own signature is its proof.
      const oneClick =
        url.pathname === '/mail/unsubscribe' && form['List-Unsubscribe'] === 'One-Click';
      if (!oneClick && !formIsOurs(c, deps, form._csrf, session?.token)) {
        return page(c, ctx, {
          title: 'Form expired',
          status: 403,
          body: expiredBody(c, ctx, form as FormData),
        });
      }
    }
    // The bell (its count and newest few), and the person's own sanction here (the header offers
    // no writing then).
    if (
      ctx.person &&
      where.kind === 'community' &&
      c.req.method === 'GET' &&
      !url.pathname.startsWith('/uploads/')
    ) {
      const [bell, sanction] = await Promise.all([
        deps.services.notifications.glance(ctx.person, where.community),
        deps.services.sanctions.mine(ctx.person.personId, where.community),
      ]);
      ctx.unread = bell.unread;
      ctx.bell = bell;
      // The menu is drawn with the layout, after the page read what it reads (pages/bell.ts).
      ctx.bellMenu = () => bellMenu(ctx, ctx.bell ?? bell);
      if (sanction) ctx.sanction = sanction;
    }
    const flash = c.req.method === 'GET' ? takeFlash(c, deps) : undefined;
    if (flash) ctx.flash = flash;
    await next();
  });

  // Feeds and sitemaps first: `/t/<slug>.atom` and `/categories/<slug>.atom` are not pages.
  for (const routes of [
    feedRoutes,
    sitemapRoutes,
    authRoutes,
    handoffRoutes,
    notificationRoutes,
    bookmarkRoutes,
    accountRoutes,
    networkRoutes,
    homeRoutes,
    profileRoutes,
    topicRoutes,
    askRoutes,
    writeRoutes,
    searchRoutes,
    approvalRoutes,
    reviewRoutes,
    adminRoutes,
    agentAdminRoutes,
    memberAdminRoutes,
    webhookAdminRoutes,
    categoryAdminRoutes,
    settingsRoutes,
    oauthRoutes,
    passwordRoutes,
    emailRoutes,
    mailAdminRoutes,
    uploadRoutes,
  ]) {
    routes(web, deps);
  }
  app.route('/', web);
}

/** The community of the host (or of the path form); the network on the apex; undefined when neither. */
async function whereOf(c: Context, deps: WebDeps): Promise<Where | undefined> {
  const host = await deps.hostKind(c.req.header('host'), c.req.header('x-forwarded-host'));
  if (host.kind === 'community')
    return {
      kind: 'community',
      community: host.community,
      base: communityPath(
        host.community.slug,
        '',
        addressedByPath((name) => c.req.header(name)),
      ),
    };
  if (host.kind === 'network') return { kind: 'network', base: '' };
  return undefined;
}
