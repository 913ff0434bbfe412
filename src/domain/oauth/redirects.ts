// Redirect URIs: which ones a client may register (https, loopback http, or an app's own scheme;
// never a fragment or a script-capable scheme), and whether the one in a request is registered:
// exact string match, except that a loopback IP literal may come on any port (a native app picks a
// free port at run time).
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);
const LOOPBACK_HOSTS = new Set(['localhost', ...LOOPBACK_IPS]);
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'about:',
  'blob:',
  'ftp:',
  'ws:',
  'wss:',
  'filesystem:',
]);

/** Why `uri` cannot be a redirect URI, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URI`;
  }
  if (uri.includes('#')) return `"${uri}" has a fragment`;
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `"${uri}" uses the ${url.protocol} scheme`;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return `"${uri}" uses http on a host other than loopback: use https`;
  if (url.username || url.password) return `"${uri}" carries credentials`;
  return undefined;
}

/** Whether `requested` is one of `registered`; never with a fragment (which no registered URI has). */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  if (requested.includes('#')) return false;
  if (registered.includes(requested)) return true;
  let req: URL;
  try {
    req = new URL(requested);
  } catch {
    return false;
  }
  if (req.protocol !== 'http:' || !LOOPBACK_IPS.has(req.hostname)) return false;
  return registered.some((r) => {
    try {
      const reg = new URL(r);
      return (
        reg.protocol === 'http:' &&
        reg.hostname === req.hostname &&
        reg.pathname === req.pathname &&
        reg.search === req.search
      );
    } catch {
      return false;
    }
  });
}

/** True when every redirect URI goes to this machine: anyone can run such a client, so say so. */
export function onlyLoopback(uris: readonly string[]): boolean {
  return uris.every((u) => {
    try {
      const url = new URL(u);
      return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
    } catch {
      return false;
    }
  });
}
