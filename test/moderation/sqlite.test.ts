// The moderation behaviour on SQLite (a copy of the demo template per run).
import { defineModerationBehaviour } from './behaviour.ts';

defineModerationBehaviour('sqlite', async () => ({ env: {} }));
