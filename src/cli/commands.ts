// The CLI's command table. Add new commands here, each implemented in its own file (./command.ts
// says what a command is).
import { serveCommand } from './serve.ts';
import { migrateCommand } from './migrate.ts';
import { backupCommand, restoreCommand } from './backup.ts';
import { communityCreateCommand } from './community-create.ts';
import { importMailCommand } from './import-mail.ts';
import { seedDemoCommand } from './seed-demo.ts';
import { identityCommands } from './identity.ts';
import { communityMcpCommand } from './community-mcp.ts';
import { approvalCommands } from './approvals.ts';
import { oauthCommands } from './oauth.ts';
import { webhookCommands } from './webhooks.ts';
import { categoryCommands } from './categories.ts';
import { mailCommands } from './mail.ts';
import { checkCommand } from './check.ts';
import { maintenanceCommand } from './maintenance.ts';

import type { Command } from './command.ts';

export const commands: Command[] = [
  serveCommand,
  migrateCommand,
  checkCommand,
  maintenanceCommand,
  backupCommand,
  restoreCommand,
  communityCreateCommand,
  communityMcpCommand,
  ...categoryCommands,
  importMailCommand,
  seedDemoCommand,
  ...identityCommands,
  ...approvalCommands,
  ...webhookCommands,
  ...mailCommands,
  ...oauthCommands,
];
