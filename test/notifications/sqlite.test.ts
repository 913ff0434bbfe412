// The notification behaviour on SQLite (a copy of the demo template per run).
import { defineNotificationBehaviour } from './behaviour.ts';

defineNotificationBehaviour('sqlite', async () => ({ env: {} }));
