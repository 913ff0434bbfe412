// The network's MCP server on the apex host: the network operations of the catalogue as tools.
// Reading needs no key; ask_community takes a user key (the pipeline authenticates per operation).
import type { Surface } from '../mcp/surface.ts';
import { NETWORK_OPERATIONS } from '../operations/catalogue.ts';
import { operationTool, type SurfaceDeps } from './calls.ts';
import { networkInstructions } from './instructions.ts';

export function networkSurface(deps: SurfaceDeps): Surface {
  return {
    serverInfo: { name: 'hamlet', title: 'Hamlet network', version: deps.version },
    instructions: networkInstructions(),
    tools: NETWORK_OPERATIONS.filter((op) => op.mcp).map((op) => operationTool(op, deps, null)),
    prompts: [],
    resources: [],
    templates: [],
  };
}
