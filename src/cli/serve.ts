// `hamlet serve`: starts Hamlet and prints where to connect: locally every community in the path
// form (`/c/<slug>/…` on the apex, on the port served: any client reaches it), with
// HAMLET_PUBLIC_ORIGIN its public host. With --demo it also prints the demo agent key and the demo
// administrator's e-mail and password, the same at every start (kept in the data folder, mode
// 0600: ../demo/demo-credentials.ts). Once serving, an error nobody observed is logged and the
// process goes on (./last-resort.ts).
import { parseArgs } from 'node:util';
import type { Command } from './command.ts';
import { loadConfig } from '../config/config.ts';
import { lastingDemoCredentials } from '../demo/demo-credentials.ts';
import { hasPublicOrigin, listedMcpUrl, listedOrigin } from '../domain/urls.ts';
import { startHamlet } from '../main.ts';
import { keepServing } from './last-resort.ts';
import { cliIo } from './io.ts';

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
    const demo = await lastingDemoCredentials(hamlet.store, hamlet.services, config.databaseUrl);
    if (!demo) return;
    const admin = demo.admin;
    const kept = `kept in ${demo.file}`;
    const mcp = listedMcpUrl(config, demo.community);
    const web = `${listedOrigin(config, demo.community)}/`;
    process.stderr.write(
      [
        '',
        'Hamlet is running with the demo community.',
        `  MCP (acme):   ${mcp}${reach}`,
        `  web (acme):   ${web}`,
        `  MCP network:  ${network}`,
        `  agent key:    ${demo.key}   (acme's demo-agent; ${demo.newKey ? 'new' : 'the same as before'}, ${kept})`,
        ...(admin
          ? [
              `  sign in:      ${web}signin   e-mail ${admin.email}   password ${admin.password}`,
              `                (acme's and skunkworks' administrator; ${admin.fresh ? 'new' : 'the same as before'}, ${kept})`,
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
