// The Hono application every non-MCP request reaches, wired to the front door: the host check,
// OAuth, the hand-off from the apex, REST and the web pages, and /llms.
import type { Hono } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config/config.ts';
import type { Logger } from '../log.ts';
import { COMMUNITY_OPERATIONS, NETWORK_OPERATIONS } from '../operations/catalogue.ts';
import type { Pipeline } from '../operations/pipeline.ts';
import {
  communityOrigin,
  communityPathOrigin,
  listedOrigin,
  publicOrigin,
} from '../domain/urls.ts';
import type { Services } from '../services.ts';
import type { Readiness } from '../store/readiness.ts';
import { mountStatic, mountWeb } from '../web/routes.ts';
import { mountHandoff } from '../web/pages/handoff.ts';
import { hiddenHostOffer, mountHiddenSignIn } from '../web/pages/hidden-signin.ts';
import type { AccessLog } from './access-log.ts';
import { createApp } from './app.ts';
import { honoHeaders, type FrontDoor } from './front-door.ts';
import { llmsSections, renderLlms } from './llms.ts';
import { mountMetrics } from './metrics-endpoint.ts';
import type { Metrics } from './metrics.ts';
import { mountOAuth } from './oauth.ts';
import { mountRest } from './rest/mount.ts';

export type FacesDeps = {
  config: Config;
  services: Services;
  pipeline: Pipeline;
  door: FrontDoor;
  logger: Logger;
  ready: () => Promise<Readiness>;
  /** Routes of other faces on the same app (the MCP server cards). */
  mount?: (app: Hono) => void;
  accessLog?: AccessLog;
  metrics?: Metrics;
};

export function createFaces(d: FacesDeps): Hono {
  const { config, services, door } = d;
  const secure = door.secure;
  const docs = llmsSections({
    networkOrigin: publicOrigin(config),
    communityOriginPattern: listedOrigin(config, '<slug>'),
    communityTools: COMMUNITY_OPERATIONS.filter((op) => op.mcp),
    networkTools: NETWORK_OPERATIONS.filter((op) => op.mcp),
  });
  const hostOf = (c: Parameters<typeof honoHeaders>[0]) => door.hostOf(honoHeaders(c));
  const handoff = { services, secure, hostOf, baseDomain: config.baseDomain };
  const incoming = (env: unknown) => (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const clientIp = (c: { env: unknown }) => {
    const req = incoming(c.env);
    return req ? door.addressOf(req) : 'unknown';
  };
  const hidden = {
    ...handoff,
    visible: async (c: Parameters<typeof door.visibleHost>[0]) => (await door.visibleHost(c)).kind,
    clientIp,
  };
  return createApp({
    logger: d.logger,
    ready: d.ready,
    // A private community looks like an unknown host to a request without a credential that reads it.
    hostKind: async (c) => (await door.visibleHost(c)).kind,
    clientIp: door.addressOf,
    accessLog: d.accessLog,
    communityOf: async (c) => {
      const r = await door.resolve(honoHeaders(c));
      return r.kind === 'community' ? r.community.slug : undefined;
    },
    operator: (app) => {
      const registry = d.metrics?.registry;
      if (registry && config.metrics.token) mountMetrics(app, registry, config.metrics.token);
    },
    secure,
    // A private community's members sign in on its own host, or reach it through the apex's account:
    // the unknown-host page (which a private host shows visitors) offers both, alike on every host
    // (../web/pages/hidden-signin.ts, ../web/pages/handoff.ts).
    unknownHostExtra: (c) => hiddenHostOffer(c, hidden),
    open: (app) => {
      mountStatic(app);
      mountOAuth(app, {
        services,
        siteOf: door.siteOf,
        clientIp: (req) => (req ? door.addressOf(req) : 'unknown'),
        actorOf: (c, community) => door.actorOf(community, door.credentialsOf(c)),
      });
      mountHandoff(app, handoff);
      mountHiddenSignIn(app, hidden);
    },
    mount: (app) => {
      d.mount?.(app);
      mountRest(app, {
        pipeline: d.pipeline,
        services,
        logger: d.logger,
        resolve: door.resolve,
        clientIp,
        origin: (slug) => communityOrigin(config, slug),
        pathOrigin: (slug) => communityPathOrigin(config, slug),
        maxBodyBytes: config.rest.maxBodyBytes,
        maxUploadBytes: config.uploads.maxBytes,
        rateLimits: config.rateLimits,
        secure,
      });
      mountWeb(app, {
        services,
        pipeline: d.pipeline,
        hostKind: (host, forwarded) =>
          door.resolve((name) =>
            name === 'host' ? host : name === 'x-forwarded-host' ? forwarded : undefined,
          ),
        hostOf,
        baseDomain: config.baseDomain,
        clientIp,
        secure,
        canonicalOrigin: (slug) => communityOrigin(config, slug),
        credentialActor: (c, community) => door.actorOf(community, door.credentialsOf(c)),
      });
    },
    llms: (section) => renderLlms(docs, section),
  });
}
