// Who is acting:
//  - person: a signed-in account (or, for imports, the imported person the system writes as)
//  - agent: an agent of one community, acting on that community's behalf
//  - anonymous: a visitor without credentials (reads public content only)
//  - system: the CLI, the importer, the demo seed: trusted, may set original dates

// Credential details (./identity/auth.ts fills them in) are optional so that internal callers and
// tests can still build a bare actor: a missing `scopes` means "no scopes", `roles` means "unknown,
// look the membership up".
import type { Sanction } from '../store/moderation.ts';
import type { Role, Scope } from './vocabulary.ts';

/**
 * An app a person connected over OAuth (an MCP host such as Claude) and acts through: what it may do
 * is the token's scopes capped by the person's role, and what it writes is labelled with its name.
 */
export type ConnectedClient = {
  /** The OAuth client_id (a client metadata document URL, or an id Hamlet issued). */
  id: string;
  /** Its display name: writes say "via <name>". */
  name: string;
  /** The grant (the connection) the token belongs to: revoked as one, rate-limited as one. */
  grantId: string;
  /** What this connection may do here. */
  scopes: readonly Scope[];
};

export type PersonActor = {
  kind: 'person';
  personId: string;
  displayName: string;
  /** How the person authenticated. */
  via?: 'session' | 'user_key' | 'cli' | 'oauth' | 'mail';
  /** Set when the person acts through a connected app (OAuth access token). */
  client?: ConnectedClient;
  /** Prefix of the user key used (never the key). */
  keyPrefix?: string;
  /** Id of the user key used: rate limits count per key. */
  keyId?: string;
  /** Role per community id, as loaded at authentication. */
  roles?: Readonly<Record<string, Role>>;
};
export type AgentActor = {
  kind: 'agent';
  agentId: string;
  communityId: string;
  name: string;
  scopes?: readonly string[];
  trusted?: boolean;
  /** Prefix of the agent key used (never the key). */
  keyPrefix?: string;
  /** Id of the agent key used: rate limits count per key. */
  keyId?: string;
  /**
   * The agent's sanction in force when its key was checked (read with the key, in the same
   * statement): null for none; absent when not known (then it is read where it matters).
   */
  sanction?: Sanction | null;
};

export type Actor =
  PersonActor | AgentActor | { kind: 'anonymous' } | { kind: 'system'; name: string };

export const anonymous: Actor = { kind: 'anonymous' };

export function systemActor(name = 'system'): Actor {
  return { kind: 'system', name };
}
