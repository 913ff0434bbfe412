// Security headers on every response of the web: a Content-Security-Policy that allows scripts,
// styles, images and fetches from the page's own origin only (nothing inline, no plugins, no base
// rewriting, forms post back to us, no framing), nosniff, Referrer-Policy same-origin, and HSTS when
// the public scheme is https.
import type { MiddlewareHandler } from 'hono';

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

export function securityHeaders(secure: boolean): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('x-content-type-options', 'nosniff');
    h.set('referrer-policy', 'same-origin');
    if ((h.get('content-type') ?? '').startsWith('text/html')) {
      // A page that states its own policy keeps it (the API reference at /api/docs loads its renderer).
      if (!h.has('content-security-policy')) h.set('content-security-policy', CSP);
      h.set('x-frame-options', 'DENY');
      h.set('cross-origin-opener-policy', 'same-origin');
      h.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()');
    }
    if (secure) h.set('strict-transport-security', 'max-age=31536000');
  };
}
