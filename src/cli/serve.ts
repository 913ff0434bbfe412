// `hamlet serve`: starts Hamlet and prints where to connect: locally every community in the path
// form (`/c/<slug>/…` on the apex, on the port served: any client reaches it), with
// HAMLET_PUBLIC_ORIGIN its public host. With --demo it also gives the demo agent key and the demo
// administrator's e-mail and password, the same at every start (kept in the data folder, mode
// 0600: ../demo/demo-credentials.ts). On a terminal as lines for a person, else as one JSON log
// line (./start-banner.ts). Once serving, an error nobody observed is logged and the
// process goes on (./last-resort.ts).
import { parseArgs } from 'node:util';
import type { Command } from './command.ts';
import { loadConfig } from '../config/config.ts';
import { lastingDemoCredentials } from '../demo/demo-credentials.ts';
import { hasPublicOrigin, listedMcpUrl, listedOrigin } from '../domain/urls.ts';
import { startHamlet } from '../main.ts';
import { keepServing } from './last-resort.ts';
import { cliIo } from './io.ts';
import { announceStart, type StartFacts } from './start-banner.ts';

export const serveCommand: Command = {
  name: 'serve',
  usage:
    'hamlet serve [--demo]   (configured by the environment: PORT, DATABASE_URL, … in the README)',
  summary:
    'start the HTTP server (MCP, REST, web), migrating the database first unless --no-migrate; --demo creates the demo community once and prints its agent key and administrator password (kept in the data folder: the same at every start)',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { demo: { type: 'boolean', default: false }, 'no-migrate': { type: 'boolean' } },
    });
    const hamlet = await startHamlet(loadConfig(cliIo().env), {
      demo: values.demo ?? false,
      migrate: !values['no-migrate'],
    });
    const { config } = hamlet; // with the port served
    // From here on, an error nobody observed is logged and everyone else is still served.
    keepServing(hamlet.logger);
    // Locally every address is the path form on the port served; with HAMLET_PUBLIC_ORIGIN, the
    // public host form.
    const facts: StartFacts = {
      url: hamlet.url,
      mcpNetwork: listedMcpUrl(config, null),
      mcpCommunity: listedMcpUrl(config, '<slug>'),
      pathForm: !hasPublicOrigin(config),
    };
    const demo = values.demo
      ? await lastingDemoCredentials(hamlet.store, hamlet.services, config.databaseUrl)
      : undefined;
    if (demo)
      facts.demo = {
        ...demo,
        mcp: listedMcpUrl(config, demo.community),
        web: `${listedOrigin(config, demo.community)}/`,
      };
    announceStart(facts, hamlet.logger, {
      stdoutIsTty: Boolean(process.stdout.isTTY),
      stderr: process.stderr,
    });
  },
};
