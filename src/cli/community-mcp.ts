// `hamlet community mcp`: show or set a community's declarative MCP configuration from a JSON file
// (tool mode, extra instructions, prompts). A running server picks the change up within a second
// and tells connected sessions with list_changed notifications.
import { readFileSync } from 'node:fs';
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { systemActor } from '../domain/actor.ts';

const USAGE = 'hamlet community mcp --community <slug> [--file <config.json>]';

export const communityMcpCommand: Command = {
  name: 'community mcp',
  summary:
    "show or set a community's MCP configuration (tool mode, instructions, prompts): --community … [--file config.json]",
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      { community: { type: 'string' }, file: { type: 'string' } },
      USAGE,
    );
    if (!values.community) throw new UsageError(`--community is required.\nUsage: ${USAGE}`);
    let input: unknown;
    if (values.file) {
      let text: string;
      try {
        text = readFileSync(values.file, 'utf8');
      } catch (err) {
        throw new UsageError(`Cannot read ${values.file}: ${(err as Error).message}`);
      }
      try {
        input = JSON.parse(text);
      } catch (err) {
        throw new UsageError(`${values.file} is not valid JSON: ${(err as Error).message}`);
      }
    }
    await withHamlet(async (store, _config, services) => {
      const community = await store.communities.getBySlug(values.community!.toLowerCase());
      if (!community)
        throw new UsageError(
          `No community "${values.community}". List them with the admin tools or create it with \`hamlet community create\`.`,
        );
      const service = services.mcpConfig;
      const config =
        input === undefined
          ? await service.get(systemActor('cli'), community)
          : await service.set(systemActor('cli'), community, input);
      console.log(JSON.stringify(config, null, 2));
    });
  },
};
