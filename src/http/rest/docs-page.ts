// The API reference page at /api/docs: Scalar's renderer, served by this instance from the
// @scalar/api-reference package (its one-file browser bundle at /api/docs/standalone.js), never
// from a CDN, so the page works offline and under a network that allows nothing else. It reads the
// document relative to itself, so the path form (/c/<slug>/api/docs) renders its community's own.
// Without the package installed the page says so (503) and points at the document itself.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { Scalar } from '@scalar/hono-api-reference';

/** The renderer and the page load from this instance only; its configuration is inline. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const RENDERER_PACKAGE = '@scalar/api-reference';

type Bundle = { body: Buffer; etag: string };
let bundle: Bundle | null | undefined;

/** The package's browser bundle, read once (null when the package is not installed). */
export function rendererBundle(): Bundle | null {
  if (bundle !== undefined) return bundle;
  try {
    const entry = createRequire(import.meta.url).resolve(RENDERER_PACKAGE);
    const body = readFileSync(join(dirname(entry), 'browser', 'standalone.js'));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
    bundle = { body, etag };
  } catch {
    bundle = null;
  }
  return bundle;
}

export function mountDocsPage(app: Hono): void {
  const reference = Scalar({
    url: 'v1/openapi.json',
    pageTitle: 'Hamlet API reference',
    cdn: 'docs/standalone.js',
    withDefaultFonts: false,
  });
  app.get('/api/docs', async (c, next) => {
    if (!rendererBundle())
      return c.body(
        `The API reference's renderer (the npm package ${RENDERER_PACKAGE}) is not installed on this instance. The OpenAPI document is at v1/openapi.json.\n`,
        503,
        { 'content-type': 'text/plain; charset=utf-8' },
      );
    c.header('content-security-policy', DOCS_CSP);
    return (await reference(c, next)) ?? c.notFound();
  });
  app.get('/api/docs/standalone.js', (c) => {
    const found = rendererBundle();
    if (!found) return c.notFound();
    const headers = {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=86400',
      etag: found.etag,
    };
    if (c.req.header('if-none-match') === found.etag) return c.body(null, 304, headers);
    return c.body(new Uint8Array(found.body), 200, headers);
  });
}
