// `hamlet serve`: starts Hamlet and prints where to connect: locally every community in the path
// form (`/c/<slug>/…` on the apex, on the port served: any client reaches it), with
// HAMLET_PUBLIC_ORIGIN its public host. With --demo it also prints a fresh demo agent key and the
// demo administrator's e-mail and fresh password. Once serving, an error nobody observed is
// logged and the process goes on (./last-resort.ts).
import { parseArgs } from 'node:util';
import type { Command } from './command.ts';
import { loadConfig } from '../config/config.ts';
import { freshDemoAgentKey } from '../demo/demo-key.ts';
import { freshDemoAdmin } from '../demo/demo-admin.ts';
import { hasPublicOrigin, listedMcpUrl, listedOrigin } from '../domain/urls.ts';
import { startHamlet } from '../main.ts';
import { keepServing } from './last-resort.ts';
import { cliIo } from './io.ts';

export const serveCommand: Command = {
  name: 'serve',
  usage:
    'hamlet serve [--demo]   (configured by the environment: PORT, DATABASE_URL, … in the README)',
  summary:
    'start the HTTP server (MCP, REST, web), migrating the database first unless --no-migrate; --demo creates the demo community once and prints a fresh agent key and administrator password',
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
    // For the person at the terminal (stderr: stdout carries the JSON logs). Locally every address
    // is the path form on the port served; with HAMLET_PUBLIC_ORIGIN, the public host form.
    const network = listedMcpUrl(config, null);
    const local = !hasPublicOrigin(config);
    const reach = local ? '   (path form: every MCP client reaches it)' : '';
    if (!values.demo) {
      process.stderr.write(
        [
          '',
          'Hamlet is running.',
          `  MCP network:    ${network}`,
          `  a community:    ${listedMcpUrl(config, '<slug>')}${reach}`,
          '',
        ].join('\n'),
      );
      return;
    }
    const demo = await freshDemoAgentKey(hamlet.store, hamlet.services.agents);
    if (!demo) return;
    const admin = await freshDemoAdmin(hamlet.store, hamlet.services.accounts);
    // The key and the password are shown once.
    const mcp = listedMcpUrl(config, demo.community);
    const web = `${listedOrigin(config, demo.community)}/`;
    process.stderr.write(
      [
        '',
        'Hamlet is running with the demo community.',
        `  MCP (acme):   ${mcp}${reach}`,
        `  web (acme):   ${web}`,
        `  MCP network:  ${network}`,
        `  agent key:    ${demo.key}   (acme's demo-agent; a new one is minted at every start)`,
        ...(admin
          ? [
              `  sign in:      ${web}signin   e-mail ${admin.email}   password ${admin.password}`,
              "                (acme's and skunkworks' administrator; a new password at every start)",
            ]
          : []),
        '',
        'Try it:',
        `  curl -sS ${mcp} -H 'content-type: application/json' -H 'authorization: Bearer ${demo.key}' \\`,
        `    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_community","arguments":{"query":"webhook signature verification"}}}'`,
        ...(admin
          ? [
              `  sign in at ${web}signin, then open ${web}admin (members, agents and keys, settings) and ${web}approvals`,
            ]
          : []),
        '',
      ].join('\n'),
    );
  },
};
