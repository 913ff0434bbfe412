// `hamlet serve`: starts Hamlet and prints where to connect: every community in the path form
// (`/c/<slug>/…` on the apex: any client reaches it) and the host form (`<slug>.<base>`, production).
// With --demo it also prints a fresh demo agent key. Once serving, an error nobody observed is
// logged and the process goes on (./last-resort.ts).
import { parseArgs } from 'node:util';
import type { Command } from './command.ts';
import { loadConfig } from '../config/config.ts';
import { freshDemoAgentKey } from '../demo/demo-key.ts';
import { communityMcpUrl, communityOrigin, communityPathOrigin } from '../domain/urls.ts';
import { startHamlet } from '../main.ts';
import { keepServing } from './last-resort.ts';

export const serveCommand: Command = {
  name: 'serve',
  summary:
    'start the HTTP server (MCP, REST, web), migrating the database first unless --no-migrate; --demo creates the demo community once and prints a fresh agent key',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { demo: { type: 'boolean', default: false }, 'no-migrate': { type: 'boolean' } },
    });
    const config = loadConfig();
    const hamlet = await startHamlet(config, {
      demo: values.demo ?? false,
      migrate: !values['no-migrate'],
    });
    // From here on, an error nobody observed is logged and everyone else is still served.
    keepServing(hamlet.logger);
    // For the person at the terminal (stderr: stdout carries the JSON logs).
    const network = `${communityOrigin(config, null)}/api/mcp`;
    if (!values.demo) {
      process.stderr.write(
        [
          '',
          'Hamlet is running.',
          `  MCP network:    ${network}`,
          `  a community:    ${communityPathOrigin(config, '<slug>')}/api/mcp   (path form: every MCP client reaches it)`,
          `                  ${communityMcpUrl(config, '<slug>')}   (host form: the production address)`,
          '',
        ].join('\n'),
      );
      return;
    }
    const demo = await freshDemoAgentKey(hamlet.store, hamlet.services.agents);
    if (!demo) return;
    // The key is shown once.
    const mcp = `${communityPathOrigin(config, demo.community)}/api/mcp`;
    process.stderr.write(
      [
        '',
        'Hamlet is running with the demo community.',
        `  MCP (acme):   ${mcp}   (path form: every MCP client reaches it)`,
        `                ${communityMcpUrl(config, demo.community)}   (host form: the production address; curl and browsers resolve *.localhost)`,
        `  web (acme):   ${communityPathOrigin(config, demo.community)}/`,
        `  MCP network:  ${network}`,
        `  agent key:    ${demo.key}   (acme's demo-agent; a new one is minted at every start)`,
        '',
        'Try it:',
        `  curl -sS ${mcp} -H 'content-type: application/json' -H 'authorization: Bearer ${demo.key}' \\`,
        `    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_community","arguments":{"query":"webhook signature verification"}}}'`,
        '',
      ].join('\n'),
    );
  },
};
