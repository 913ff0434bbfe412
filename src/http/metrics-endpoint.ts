// Where Prometheus scrapes: GET /metrics on the main port for a scraper presenting
// `Authorization: Bearer <HAMLET_METRICS_TOKEN>` (compared in constant time; without the variable
// the path does not exist: 404), and, with HAMLET_METRICS_PORT, the same text on a port of its own
// without a token (bind it where only the scraper reaches it).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Hono } from 'hono';
import type { Registry } from 'prom-client';
import type { Logger } from '../log.ts';
import { listenOn } from './listen.ts';

export const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `authorization` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/** GET /metrics on the app, for a scraper with the token. */
export function mountMetrics(app: Hono, registry: Registry, token: string): void {
  app.get(METRICS_PATH, async (c) => {
    const authorization = c.req.header('authorization');
    if (!bearerMatches(authorization, token)) {
      const missing = authorization === undefined;
      return c.text(
        missing
          ? 'Send Authorization: Bearer <HAMLET_METRICS_TOKEN>.\n'
          : 'That is not the metrics token.\n',
        missing ? 401 : 403,
        missing ? { 'www-authenticate': 'Bearer realm="metrics"' } : {},
      );
    }
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType });
  });
}

/** The metrics alone on their own port (no token: whoever reaches the port may scrape). */
export async function startMetricsServer(
  registry: Registry,
  port: number,
  host: string,
  logger: Logger,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== METRICS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`Only GET ${METRICS_PATH} here.\n`);
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => {
        logger.error({ err }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed.\n');
      },
    );
  });
  await listenOn(server, port, host);
  return server;
}
