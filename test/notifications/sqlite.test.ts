// The notification behaviour on SQLite (a copy of the demo template per run).
import { defineNotificationsContract } from './contract.ts';

defineNotificationsContract('sqlite', async () => ({ env: {} }));
