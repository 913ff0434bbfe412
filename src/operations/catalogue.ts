// Hamlet's operation catalogue: every product operation, once. The MCP servers list their tools from
// it, and REST routes, OpenAPI and web forms are generated from the same definitions.
import { COMMUNITY_OPERATIONS } from './community.ts';
import { NETWORK_OPERATIONS } from './network.ts';
import type { AnyOperation } from './operation.ts';
import { WEBHOOK_OPERATIONS } from './webhooks.ts';

export const CATALOGUE: readonly AnyOperation[] = [...COMMUNITY_OPERATIONS, ...WEBHOOK_OPERATIONS, ...NETWORK_OPERATIONS];

export { COMMUNITY_OPERATIONS, NETWORK_OPERATIONS, WEBHOOK_OPERATIONS };
