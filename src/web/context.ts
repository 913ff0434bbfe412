// What every web handler works with: where the request is (a community, by its host or by the path
// form /c/<slug>, or the network apex), who is signed in, the form token, and the one way pages
// read and write: a catalogue operation through the call pipeline, exactly as MCP calls it.
import { siteBase, siteName } from './site.ts';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { Actor, PersonActor } from '../domain/actor.ts';
import type { NotificationView } from '../domain/notifications/service.ts';
import { ERROR_ANSWERS, type DomainErrorCode } from '../domain/errors.ts';
import type { Operation } from '../operations/operation.ts';
import type { Failure, Outcome, Pipeline } from '../operations/pipeline.ts';
import type { Services } from '../services.ts';
import type { Community } from '../store/types.ts';
import type { Html } from './template.ts';

/** A notice at the top of the main content: a confirmation, or a problem (announced as an alert). */
export type Notice = { kind: 'ok' | 'error'; text: string };

export type Where =
  { kind: 'community'; community: Community; base: string } | { kind: 'network'; base: string };

export type Web = {
  where: Where;
  /** The signed-in person, from the session cookie. */
  person?: PersonActor;
  /** The form token every POST form carries (derived from the session, or the pre-session cookie). */
  csrf: string;
  ip: string;
  /** The request path, for "sign in and come back". */
  path: string;
  /** This page's canonical URL: the community's own origin (host form or custom domain). */
  canonical: string;
  /** Scripts (asset names) the page enhances itself with. */
  scripts?: string[];
  /** A one-time notice from the previous request (after a redirect). */
  flash?: Notice;
  /** Unread notifications of the signed-in person here (the header's bell). */
  unread?: number;
  /** The signed-in person's own suspension or silence here, in force (told atop every page). */
  sanction?: { mode: 'suspended' | 'silenced'; endsAt: string; by: string; reason: string };
  /** The bell's newest notifications (a page that reads some updates them before the layout). */
  bell?: { unread: number; recent: NotificationView[] };
  /** The header's bell with its menu, rendered when the layout is (pages/bell.ts). */
  bellMenu?: () => Html;
};

export type WebDeps = {
  services: Services;
  pipeline: Pipeline;
  /** Community by the request's host (Host, or X-Forwarded-Host behind a trusted proxy). */
  hostKind: (
    host: string | undefined,
    forwardedHost: string | undefined,
  ) => Promise<
    { kind: 'network' } | { kind: 'community'; community: Community } | { kind: 'unknown' }
  >;
  /** The host the browser addressed (X-Forwarded-Host only behind a trusted proxy). */
  hostOf: (c: Context) => string | undefined;
  /** Community hosts are `<slug>.<baseDomain>`; the apex is the base domain. */
  baseDomain: string;
  /** The client's address (X-Forwarded-For only behind a trusted proxy). */
  clientIp: (c: Context) => string;
  /** Public URLs are https: cookies get Secure (and the __Host- prefix), HSTS is sent. */
  secure: boolean;
  /** The canonical origin of a community (null: the network's apex). */
  canonicalOrigin: (slug: string | null) => string;
  /** Who the request's key (Bearer, X-API-Key, a user key) or session makes it on `community`. */
  credentialActor?: (c: Context, community: Community) => Promise<Actor>;
};

export type WebEnv = { Variables: { web: Web } };

/**
 * A path inside the current community (or the network), in the form the request came in: the one
 * way links and form actions are built. A path already in that form is kept as it is (no community
 * has a page under /c/), so a handler may pass the request's own path or an href alike.
 */
export function href(web: Pick<Web, 'where'>, path: string): string {
  const base = web.where.base;
  if (path === '/') return base || '/';
  if (base && (path === base || path.startsWith(`${base}/`))) return path;
  return base + path;
}

/** Runs a catalogue operation as the signed-in person (or a visitor), typed by its output schema. */
export async function call<O extends z.ZodObject>(
  deps: WebDeps,
  web: Web,
  op: Operation<z.ZodObject, O>,
  args: unknown,
): Promise<Outcome<z.output<O>>> {
  const community =
    op.server === 'community' && web.where.kind === 'community' ? web.where.community : null;
  return deps.pipeline.invoke(
    op,
    // A page's base is set only when the request addressed its community by path.
    {
      community,
      ip: web.ip,
      person: web.person,
      visitor: true,
      userKeys: false,
      showsHtml: true,
      pathForm: web.where.base !== '',
      // Account mails name the site the page is on and link there, in the page's form.
      site: { name: siteName(deps, web), base: siteBase(deps, web) },
    },
    args,
  );
}

/** The HTTP status a failure is shown with (the web's column of the error table). */
export function statusOf(f: Failure): (typeof ERROR_ANSWERS)[DomainErrorCode]['web'] {
  return ERROR_ANSWERS[f.code].web;
}
