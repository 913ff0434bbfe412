// The CLI's command table. A command is a name (one or more words), a one-line summary and a run
// function that receives the remaining argv. Add new commands here, implemented in their own file.
import { serveCommand } from './serve.ts';
import { migrateCommand } from './migrate.ts';
import { communityCreateCommand } from './community-create.ts';
import { importMailCommand } from './import-mail.ts';
import { seedDemoCommand } from './seed-demo.ts';
import { identityCommands } from './identity.ts';
import { communityMcpCommand } from './community-mcp.ts';
import { approvalCommands } from './approvals.ts';

export type Command = {
  name: string;
  summary: string;
  run: (args: string[]) => Promise<void>;
};

export const commands: Command[] = [serveCommand, migrateCommand, communityCreateCommand, communityMcpCommand, importMailCommand, seedDemoCommand, ...identityCommands, ...approvalCommands];
