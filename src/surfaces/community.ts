// One community's MCP server: the community operations of the catalogue as tools (or behind the
// two-tool mode's search/execute), its prompts, resources and templates, and the instructions its
// administrators add. Every call takes the pipeline: tools through operationTool, content methods
// through contentGuard.
import { DEFAULT_MCP_CONFIG, type CommunityMcpConfig } from '../domain/community-mcp.ts';
import { withSkills } from '../mcp/skills.ts';
import type { Surface, ToolDef } from '../mcp/surface.ts';
import { twoToolMode } from '../mcp/two-tool.ts';
import { COMMUNITY_TOOLS } from '../operations/catalogue.ts';
import { listedAsTool } from '../operations/operation.ts';
import type { Community } from '../store/types.ts';
import { contentGuard, guardedTool, operationTool, type SurfaceDeps } from './calls.ts';
import { communityInstructions } from './instructions.ts';
import { communitySkills } from './skills.ts';
import {
  communityPrompts,
  communityResources,
  communityTemplates,
  configuredPrompts,
  LIST_TTL_MS,
} from './resources.ts';

export function communityTools(
  deps: SurfaceDeps,
  community: Community,
  config: CommunityMcpConfig = DEFAULT_MCP_CONFIG,
): ToolDef[] {
  // The nine come first in the catalogue; a toolset's tools follow where the configuration turns it on.
  return COMMUNITY_TOOLS.filter((op) => listedAsTool(op, config.toolsets)).map((op) =>
    operationTool(op, deps, community),
  );
}

export function communitySurface(
  deps: SurfaceDeps,
  community: Community,
  config: CommunityMcpConfig = DEFAULT_MCP_CONFIG,
): Surface {
  const tools = communityTools(deps, community, config);
  const instructions = communityInstructions(
    community.slug,
    community.name,
    tools.map((t) => t.name),
  );
  return withSkills(
    baseSurface(deps, community, config, tools, instructions),
    communitySkills(community, config, tools),
  );
}

function baseSurface(
  deps: SurfaceDeps,
  community: Community,
  config: CommunityMcpConfig,
  tools: ToolDef[],
  instructions: string,
): Surface {
  return {
    serverInfo: { name: 'hamlet', title: `Hamlet: ${community.slug}`, version: deps.version },
    // What a private community lists is for its own agents only: no shared cache may keep it.
    cache: {
      scope: community.visibility === 'private' ? 'private' : 'public',
      listTtlMs: LIST_TTL_MS,
    },
    instructions: config.instructions
      ? `${instructions}\n\nFrom the administrators of ${community.name}:\n${config.instructions}`
      : instructions,
    tools:
      config.tool_mode === 'two-tool'
        ? twoToolOf(tools, deps, community, config.search_limit)
        : tools,
    prompts: [...communityPrompts(deps, community), ...configuredPrompts(deps, community, config)],
    resources: communityResources(deps, community),
    templates: communityTemplates(deps, community),
    around: contentGuard(deps, community, 'community'),
  };
}

/** search and execute: execute runs the chosen tool (itself behind the pipeline); search is wrapped. */
function twoToolOf(
  tools: ToolDef[],
  deps: SurfaceDeps,
  community: Community,
  searchLimit: number,
): ToolDef[] {
  const [search, execute] = twoToolMode(tools, { searchLimit, logger: deps.logger });
  return [guardedTool(search!, deps, community, 'community'), execute!];
}
