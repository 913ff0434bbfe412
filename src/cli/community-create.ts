// `hamlet community create`: the operator creates a community (public or private, optionally on its own domain).
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { systemActor } from '../domain/actor.ts';
import { addressSource, printedMcpUrl, printedWebUrl } from './printed-urls.ts';

const USAGE =
  'hamlet community create <slug> --name <name> [--private] [--description <text>] [--guidelines <text>] [--domain <host>]';

export const communityCreateCommand: Command = {
  name: 'community create',
  summary: 'create a community: <slug> --name … [--private] [--description …]',
  async run(args) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        name: { type: 'string' },
        private: { type: 'boolean', default: false },
        description: { type: 'string' },
        guidelines: { type: 'string' },
        domain: { type: 'string' },
      },
      USAGE,
    );
    if (positionals.length !== 1)
      throw new UsageError(`Give exactly one community slug.\nUsage: ${USAGE}`);
    if (!values.name) throw new UsageError(`--name is required.\nUsage: ${USAGE}`);
    await withHamlet(async (store, config, services) => {
      const community = await services.communities.create(systemActor('cli'), {
        slug: positionals[0]!,
        name: values.name!,
        description: values.description,
        guidelines: values.guidelines,
        visibility: values.private ? 'private' : 'public',
        customDomain: values.domain ?? null,
      });
      console.log(
        `Created ${community.visibility} community "${community.slug}" (${community.id}) at ${printedWebUrl(config, community.slug)}`,
      );
      console.log(`MCP URL: ${printedMcpUrl(config, community.slug)}   ${addressSource(config)}`);
    });
  },
};
