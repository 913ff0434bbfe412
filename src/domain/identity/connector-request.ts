// What the connector URL (the OAuth-protected MCP endpoint) verified about the request it serves:
// the token and the person it stands for. The connector makes it at its front door and it travels
// with the request (Caller.connector) to the pipeline, which also notes there the scopes calls
// found missing, which the connector turns into an insufficient_scope challenge.
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

/** An OAuth access token (a JWT) rather than a Hamlet key. */
export function isAccessToken(credential: string | undefined): credential is string {
  return credential !== undefined && /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(credential.trim());
}
