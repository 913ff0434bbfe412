// Security headers on every response: nosniff, Referrer-Policy same-origin and HSTS when the public
// scheme is https; and on the web's (not the JSON API's) a Content-Security-Policy that allows
// scripts, styles, images and fetches from the page's own origin only (nothing inline, no plugins,
// no base rewriting, forms post back to us, no framing), with X-Frame-Options, COOP and a
// Permissions-Policy.
import type { MiddlewareHandler } from 'hono';
import { withResponseHeaders } from './response-headers.ts';

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The policy for a page whose form leads the browser on to another site after it posts (the OAuth
 * consent page redirects to the app): `form-action` also names that destination. A handler sets it
 * on its response; the middleware keeps it.
 */
export function cspWithFormAction(source: string): string {
  return CSP.replace("form-action 'self'", `form-action 'self' ${source}`);
}

/**
 * `isPage(path)`: whether the path is the web's (pages, feeds, files) rather than the JSON API's;
 * pages also get the policy, framing, opener and permissions headers. A handler that states its own
 * policy keeps it (the API reference at /api/docs, which loads nothing; a served file is sandboxed).
 */
export function securityHeaders(
  secure: boolean,
  isPage: (path: string) => boolean,
): MiddlewareHandler {
  const common: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  };
  if (secure) common['strict-transport-security'] = 'max-age=31536000';
  const page: Record<string, string> = {
    ...common,
    'content-security-policy': CSP,
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
  };
  return (c, next) => withResponseHeaders(c, isPage(c.req.path) ? page : common, next);
}
