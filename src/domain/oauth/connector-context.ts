// What the connector URL (the OAuth-protected MCP endpoint) learned about the request it is
// serving, carried to the call pipeline beneath the MCP engine without threading it through the
// engine (which knows nothing of Hamlet): the verified token and the person it stands for, and the
// scopes calls found missing, which the connector turns into an insufficient_scope challenge.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PersonActor } from '../actor.ts';
import type { Scope } from '../vocabulary.ts';

export type ConnectorRequest = {
  /** The access token exactly as presented, and whom it authenticated for this request. */
  token: string;
  actor: PersonActor;
  communityId: string;
  /** The connector URL the token was verified for (its audience). */
  resource: string;
  /** Scopes a call of this request needed and the token lacked. */
  missingScopes: Set<Scope>;
};

const storage = new AsyncLocalStorage<ConnectorRequest>();

/** Runs `fn` (the MCP transport's handling of one HTTP request) as a connector request. */
export function runAsConnectorRequest<T>(request: ConnectorRequest, fn: () => T): T {
  return storage.run(request, fn);
}

/** The connector request being served, if this call came through the connector URL. */
export function currentConnectorRequest(): ConnectorRequest | undefined {
  return storage.getStore();
}

/** An OAuth access token (a JWT) rather than a Hamlet key. */
export function isAccessToken(credential: string | undefined): credential is string {
  return credential !== undefined && /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(credential.trim());
}

/** Records that a call needed `scope`: the connector answers 403 insufficient_scope naming it. */
export function noteMissingScope(scope: Scope): void {
  storage.getStore()?.missingScopes.add(scope);
}
