// The Hono application for everything except /api/mcp (which is served by the MCP transport on
// node:http directly, see src/mcp/http-transport.ts): health, readiness, /llms, and the routes the
// faces add (the REST API, the web pages, the operator's /metrics).
import { Hono, type Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../log.ts';
import { createAccessLog, type AccessLog } from './access-log.ts';
import { createMetrics } from './metrics.ts';
import { barePage, hostPage } from '../web/html.ts';
import { html, markupOf, type Html } from '../web/template.ts';
import { securityHeaders } from '../web/security.ts';
import { inputErrorOf } from '../domain/validate.ts';
import { unavailableOf } from '../domain/errors.ts';
import {
  internalErrorResponse,
  isRestPath,
  unavailableResponse,
  unknownCommunityResponse,
  unstorableInputResponse,
} from './rest/unknown.ts';
import type { Readiness } from '../store/readiness.ts';

export type AppDeps = {
  logger: Logger;
  /** Whether this instance is ready: the database takes writes, its LISTEN connection is up. */
  ready: () => Promise<Readiness>;
  /**
   * What the request's host (Host, or X-Forwarded-Host behind a trusted proxy) is, as this request
   * may see it: a private community is 'unknown' without a credential (key or session) that reads it.
   */
  hostKind: (c: Context) => Promise<'network' | 'community' | 'unknown'>;
  /** The client's address (behind a trusted proxy, from X-Forwarded-For). */
  clientIp: (incoming: IncomingMessage) => string;
  /** Where each request's line and metrics go (default: lines on `logger`, no metrics). */
  accessLog?: AccessLog;
  /** The slug of the community a request addressed, for its access-log line. */
  communityOf?: (c: Context) => Promise<string | undefined>;
  /** The operator's routes, which every host reaches before the host check (GET /metrics). */
  operator?: (app: Hono) => void;
  /** More of the unknown-host page (HTML), e.g. a way for members of a private community in. */
  unknownHostExtra?: (c: Context) => Html;
  /** The agent documentation served at /llms. */
  llms: (section?: string) => { found: boolean; text: string };
  /** Public URLs are https (HSTS is sent). */
  secure?: boolean;
  /** Adds the routes of the other faces (the REST API and the web pages). */
  mount?: (app: Hono) => void;
  /**
   * Routes every host reaches, before the host check: they resolve the host themselves (the OAuth
   * metadata and token endpoints, which a private community must answer without a credential).
   */
  open?: (app: Hono) => void;
};

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  // Security headers on every response, the unknown-host and error pages included.
  app.use(
    '*',
    securityHeaders(deps.secure ?? false, (path) => !isRestPath(path)),
  );

  const incoming = (c: Context) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  app.use(
    '*',
    (deps.accessLog ?? createAccessLog(deps.logger, createMetrics(false))).hono({
      clientIp: (c) => {
        const req = incoming(c);
        return req ? deps.clientIp(req) : undefined;
      },
      communityOf: deps.communityOf ?? (async () => undefined),
    }),
  );

  // Liveness: the process answers. Readiness: the database takes writes, and the LISTEN
  // connection (several instances over PostgreSQL) is up: {success, database, listener?}.
  app.get('/heartbeat', (c) => c.json({ success: true }));
  app.get('/readyz', async (c) => {
    const r = await deps
      .ready()
      .catch((): Readiness => ({ ready: false, database: 'unreachable' }));
    const { ready, ...parts } = r;
    return c.json({ success: ready, ...parts }, ready ? 200 : 503);
  });

  deps.operator?.(app);
  deps.open?.(app);

  app.use('*', async (c, next) => {
    if ((await deps.hostKind(c)) === 'unknown') {
      if (isRestPath(c.req.path)) return unknownCommunityResponse();
      // Crawlers are kept off an address that serves nothing (a private community's host too).
      if (c.req.path === '/robots.txt') return c.text('User-agent: *\nDisallow: /\n');
      return c.html(
        markupOf(
          hostPage(
            'Not found',
            html`<h1>Not found</h1><p>This address does not belong to any Hamlet community.</p>${deps.unknownHostExtra?.(c)}`,
          ),
        ),
        404,
      );
    }
    await next();
  });

  // The agent documentation as plain text, whole or one section; `/llms.txt` is the same text at the
  // address the llms.txt convention names.
  for (const path of ['/llms', '/llms.txt'])
    app.get(path, (c) => {
      const { found, text } = deps.llms(c.req.query('section') || undefined);
      return c.text(text, found ? 200 : 404);
    });

  deps.mount?.(app);

  app.notFound((c) =>
    c.html(markupOf(barePage('Not found', 'There is nothing at this address.')), 404),
  );
  app.onError((err, c) => {
    const rest = isRestPath(c.req.path);
    // Input no engine can store (the NUL character) that reached the store: the caller's mistake.
    if (inputErrorOf(err) && rest) return unstorableInputResponse();
    if (inputErrorOf(err))
      return c.html(
        markupOf(
          barePage(
            'Bad request',
            'The address or the form carried characters that are not allowed.',
          ),
        ),
        400,
      );
    // A database that cannot be reached or written: 503 with Retry-After, so clients and proxies retry.
    const outage = unavailableOf(err);
    if (outage) {
      deps.logger.warn({ err, kind: `${c.req.method} ${c.req.routePath}` }, 'database unavailable');
      const wait = outage.retryAfterSeconds;
      if (rest) return unavailableResponse(outage.message, wait);
      c.header('retry-after', String(wait));
      return c.html(markupOf(barePage('Unavailable for a moment', outage.message)), 503);
    }
    // One line per route and error, then counts (src/log.ts): an outage is not a stack per request.
    deps.logger.error({ err, kind: `${c.req.method} ${c.req.routePath}` }, 'unhandled error');
    if (rest) return internalErrorResponse();
    return c.html(
      markupOf(
        barePage('Server error', 'Something went wrong on our side. Try again in a moment.'),
      ),
      500,
    );
  });
  return app;
}
