// Lets the conformance suite, which sends no credentials of its own, talk to a community server as
// an agent of that community: with HAMLET_CONFORMANCE_AUTH="<host>=<key>", every request this process
// makes to <host> (through fetch or node:http) carries `Authorization: Bearer <key>`.
// Plain JavaScript so that the Node 22 conformance process can load it without tsx.
import http from 'node:http';

const [host, key] = (process.env.HAMLET_CONFORMANCE_AUTH ?? '').split('=');
if (host && key) {
  const bearer = `Bearer ${key}`;
  const originalFetch = globalThis.fetch;
  globalThis.fetch = (input, init = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (url.host !== host) return originalFetch(input, init);
    const headers = new Headers(
      init.headers ?? (input instanceof Request ? input.headers : undefined),
    );
    if (!headers.has('authorization')) headers.set('authorization', bearer);
    return originalFetch(input, { ...init, headers });
  };
  const originalRequest = http.request;
  http.request = (options, ...rest) => {
    if (
      typeof options === 'object' &&
      !(options instanceof URL) &&
      `${options.hostname}:${options.port}` === host
    ) {
      options = { ...options, headers: { authorization: bearer, ...options.headers } };
    }
    return originalRequest(options, ...rest);
  };
}
