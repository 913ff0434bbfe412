// `hamlet migrate [--to <migration>] [--status]`: applies pending database migrations, or brings
// the schema to a named migration (reverting the later ones: a rollback before running an older
// version), or lists where the schema stands. With `hamlet serve`, the only command that changes
// the schema; stop the servers before going down.
import type { Command } from './command.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import type { Store } from '../store/repositories.ts';
import { UsageError } from './errors.ts';

const USAGE = 'hamlet migrate [--to <migration>] [--status]';

export const migrateCommand: Command = {
  name: 'migrate',
  summary:
    'apply pending database migrations (DATABASE_URL); --to <migration> migrates up or down to it; --status lists them',
  async run(args) {
    const { values, positionals } = parseCommandArgs(
      args,
      { to: { type: 'string' }, status: { type: 'boolean' } },
      USAGE,
    );
    if (positionals.length) throw new UsageError(`Usage: ${USAGE}`);
    await withHamlet(
      async (store) => {
        if (values.status) return printStatus(store);
        if (values.to) return migrateTo(store, values.to);
        const applied = await store.migrate();
        console.log(
          applied.length
            ? `Applied ${applied.length} migration(s): ${applied.join(', ')}`
            : 'The database is up to date.',
        );
      },
      { migrate: false, requireCurrentSchema: false },
    );
  },
};

async function migrateTo(store: Store, target: string): Promise<void> {
  const { applied, reverted } = await store.migrateTo(target);
  if (reverted.length)
    console.log(`Reverted ${reverted.length} migration(s): ${reverted.join(', ')}`);
  if (applied.length) console.log(`Applied ${applied.length} migration(s): ${applied.join(', ')}`);
  console.log(`The schema is at ${target}.`);
}

async function printStatus(store: Store): Promise<void> {
  const state = await store.schemaState();
  for (const name of state.applied) console.log(`applied   ${name}`);
  for (const name of state.pending) console.log(`pending   ${name}`);
  for (const name of state.unknown) console.log(`unknown   ${name}   (applied by a newer version)`);
}
