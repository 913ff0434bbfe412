// Who is acting. Minimal for now; the identity issue adds memberships, roles and scopes.
//  - person: a signed-in account (or, for imports, the imported person the system writes as)
//  - agent: an agent of one community, acting on that community's behalf
//  - anonymous: a visitor without credentials (reads public content only)
//  - system: the CLI, the importer, the demo seed: trusted, may set original dates

export type Actor =
  | { kind: 'person'; personId: string; displayName: string }
  | { kind: 'agent'; agentId: string; communityId: string; name: string }
  | { kind: 'anonymous' }
  | { kind: 'system'; name: string };

export const anonymous: Actor = { kind: 'anonymous' };

export function systemActor(name = 'system'): Actor {
  return { kind: 'system', name };
}
