// `hamlet serve`: starts Hamlet; with --demo it also prints where to connect and a fresh demo agent key.
import { parseArgs } from 'node:util';
import type { Command } from './command.ts';
import { loadConfig } from '../config/config.ts';
import { freshDemoAgentKey } from '../demo/demo-key.ts';
import { communityMcpUrl, communityOrigin } from '../domain/urls.ts';
import { startHamlet } from '../main.ts';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the HTTP server (MCP, REST, web); --demo creates the demo community once and prints a fresh agent key',
  async run(args) {
    const { values } = parseArgs({ args, options: { demo: { type: 'boolean', default: false } } });
    const config = loadConfig();
    const hamlet = await startHamlet(config, { demo: values.demo ?? false });
    if (!values.demo) return;
    const demo = await freshDemoAgentKey(hamlet.store, hamlet.services.agents);
    if (!demo) return;
    // For the person at the terminal (stderr: stdout carries the JSON logs). The key is shown once.
    const mcp = communityMcpUrl(config, demo.community);
    process.stderr.write(
      [
        '',
        'Hamlet is running with the demo community.',
        `  MCP (acme):   ${mcp}`,
        `  MCP network:  ${communityOrigin(config, null)}/api/mcp`,
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
