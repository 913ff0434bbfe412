// Headers a middleware adds to every response it passes, set where they cost nothing: on the node
// response before the handler runs. @hono/node-server writes a handler's response straight to the
// socket (status, headers, string body) unless something touched the Response's headers after it
// was made, which turns it into a full web Response read back through a stream: that was ~15% of a
// REST read and of a web page. Node merges what was set here with the head the handler's response
// brings, and the handler's own value of a header wins. Without a node response (app.request in
// tests) the headers go onto the handler's response after it, the handler's own values kept.
import type { Context, Next } from 'hono';
import type { ServerResponse } from 'node:http';

/** The node response a request served by @hono/node-server is answered on. */
function nodeResponseOf(c: Context): ServerResponse | undefined {
  return (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
}

export async function withResponseHeaders(
  c: Context,
  headers: Readonly<Record<string, string>>,
  next: Next,
): Promise<void> {
  const out = nodeResponseOf(c);
  if (out && !out.headersSent) {
    for (const name in headers) if (!out.hasHeader(name)) out.setHeader(name, headers[name]!);
    await next();
    return;
  }
  await next();
  const h = c.res.headers;
  for (const name in headers) if (!h.has(name)) h.set(name, headers[name]!);
}
