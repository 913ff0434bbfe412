// Types the HTTP transport's parts share (./http-transport.ts, ./legacy-post.ts): the endpoint a
// request addresses, and the answer of the per-client admission every request passes.
import type { Surface } from './surface.ts';

/** What the request's host resolved to. */
export type Endpoint = {
  scope: string;
  surface: Surface;
  /** What the application made of this request at its front door, opaque here: handlers get it as ctx.context. */
  context?: unknown;
};

/** Whether a client may go on; when not, how long it should wait and what to tell it. */
export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number; message: string };
