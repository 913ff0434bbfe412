import { parseArgs } from 'node:util';
import type { Command } from './commands.ts';
import { loadConfig } from '../config/config.ts';
import { startHamlet } from '../main.ts';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the HTTP server (MCP, REST, web); --demo creates the demo community once',
  async run(args) {
    const { values } = parseArgs({ args, options: { demo: { type: 'boolean', default: false } } });
    const config = loadConfig();
    await startHamlet(config, { demo: values.demo ?? false });
  },
};
