// Who a request served by Hono (a web page, a REST call) acted as, kept on the request's context
// once known, for its access-log line (src/http/access-log.ts): reads are recorded there only.
import type { Context } from 'hono';
import type { Actor } from '../domain/actor.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** Who the request acted as, once authenticated (noteActor). */
    accessActor: Actor;
  }
}

/** Tells the request's access-log line who the caller is. */
export function noteActor(c: Context, actor: Actor): void {
  c.set('accessActor', actor);
}

/** Who the request acted as, if it said. */
export function notedActor(c: Context): Actor | undefined {
  return c.get('accessActor') as Actor | undefined;
}
