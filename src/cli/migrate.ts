// `hamlet migrate`: applies pending database migrations (opening the database does, too).
import type { Command } from './command.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'apply pending database migrations (DATABASE_URL)',
  async run(args) {
    parseCommandArgs(args, {}, 'hamlet migrate');
    await withHamlet(
      async (store) => {
        const applied = await store.migrate();
        console.log(
          applied.length
            ? `Applied ${applied.length} migration(s): ${applied.join(', ')}`
            : 'The database is up to date.',
        );
      },
      { migrate: false },
    );
  },
};
