// `hamlet community create`: the operator creates a community (public or private, optionally on its
// own domain), named after its slug unless --name says otherwise, with the starter category and
// guidelines (src/domain/community-defaults.ts) so that it takes its first question at once.
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { systemActor } from '../domain/actor.ts';
import { addressSource, printedMcpUrl, printedWebUrl } from './printed-urls.ts';

const USAGE =
  'hamlet community create <slug> [--name <name>] [--private] [--description <text>] [--guidelines <text>] [--domain <host>]';

export const communityCreateCommand: Command = {
  name: 'community create',
  summary:
    'create a community with the category "general" and starter guidelines: <slug> [--name …] [--private]',
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
    await withHamlet(async (store, config, services) => {
      const community = await services.communities.create(
        systemActor('cli'),
        {
          slug: positionals[0]!,
          name: values.name ?? positionals[0]!,
          description: values.description,
          guidelines: values.guidelines,
          visibility: values.private ? 'private' : 'public',
          customDomain: values.domain ?? null,
        },
        { starter: true },
      );
      console.log(
        `Created ${community.visibility} community "${community.slug}" (${community.id}) at ${printedWebUrl(config, community.slug)}`,
      );
      console.log(`MCP URL: ${printedMcpUrl(config, community.slug)}   ${addressSource(config)}`);
      console.log(
        `It starts with the category "general" (discussion) and starter guidelines: see \`hamlet category list --community ${community.slug}\`; administrators change both on its /admin pages.`,
      );
    });
  },
};
