// The network's MCP server on the apex host: the network operations of the catalogue as tools.
// Reading needs no key; ask_community takes a user key (the pipeline authenticates per operation).
// A tool's `community` argument is mirrored into the Mcp-Param-Community header (2026-07-28
// clients send it), so a gateway in front can route or limit by community without reading bodies.
import type { Surface, ToolDef } from '../mcp/surface.ts';
import { NETWORK_OPERATIONS } from '../operations/catalogue.ts';
import { operationTool, type SurfaceDeps } from './calls.ts';
import { LIST_TTL_MS } from './resources.ts';
import { networkInstructions } from './instructions.ts';

export function networkSurface(deps: SurfaceDeps): Surface {
  return {
    serverInfo: { name: 'hamlet', title: 'Hamlet network', version: deps.version },
    instructions: networkInstructions(),
    cache: { scope: 'public', listTtlMs: LIST_TTL_MS },
    tools: NETWORK_OPERATIONS.filter((op) => op.mcp).map((op) =>
      mirrorCommunity(operationTool(op, deps, null)),
    ),
    prompts: [],
    resources: [],
    templates: [],
  };
}

/** Marks a tool's string `community` argument for the Mcp-Param-Community header. */
function mirrorCommunity(tool: ToolDef): ToolDef {
  const properties = tool.inputSchema.properties as
    Record<string, Record<string, unknown>> | undefined;
  if (properties?.community?.type !== 'string') return tool;
  return {
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: {
        ...properties,
        community: { ...properties.community, 'x-mcp-header': 'Community' },
      },
    },
  };
}
