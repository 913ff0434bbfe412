// The moderation behaviour on SQLite (a copy of the demo template per run).
import { defineModerationServiceContract } from './contract.ts';

defineModerationServiceContract('sqlite', async () => ({ env: {} }));
