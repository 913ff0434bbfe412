// `hamlet migrate [--to <migration>] [--status] [--maintenance-ok]`: applies pending database
// migrations, or brings the schema to a named migration (reverting the later ones: a rollback
// before running an older version), or lists where the schema stands with each migration's traffic
// flag (src/store/migrations/traffic.ts). With `hamlet serve`, the only command that changes the
// schema; stop the servers before going down.
//
// A pending migration that needs maintenance mode is applied only while maintenance mode is on
// (`hamlet maintenance on`), or with --maintenance-ok (the operator has stopped every instance, or
// accepts writes waiting on its locks). A database with no migration applied yet serves no one:
// it is migrated without asking.
import type { Command } from './command.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import type { Store } from '../store/repositories.ts';
import { UsageError } from './errors.ts';
import { migrationTraffic, needingMaintenance } from '../store/migrations/index.ts';

/** The migration that makes maintenance mode: before it, the mode cannot be on. */
export const MAINTENANCE_MIGRATION = '0114_maintenance';

const USAGE = 'hamlet migrate [--to <migration>] [--status] [--maintenance-ok]';

export const migrateCommand: Command = {
  name: 'migrate',
  summary:
    'apply pending database migrations (DATABASE_URL); --to <migration> migrates up or down to it; --status lists them with their traffic flag',
  async run(args) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        to: { type: 'string' },
        status: { type: 'boolean' },
        'maintenance-ok': { type: 'boolean' },
      },
      USAGE,
    );
    if (positionals.length) throw new UsageError(`Usage: ${USAGE}`);
    await withHamlet(
      async (store) => {
        if (values.status) return printStatus(store);
        if (!values['maintenance-ok']) await refuseWithoutMaintenance(store, values.to);
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

async function refuseWithoutMaintenance(store: Store, target?: string): Promise<void> {
  const state = await store.schemaState();
  if (!state.applied.length) return;
  const needing = needingMaintenance(state.pending, target);
  if (!needing.length) return;
  // Before its own migration a database has no maintenance mode (and the release serving it
  // does not know one): only stopping the instances keeps writes off.
  const hasMaintenance = state.applied.includes(MAINTENANCE_MIGRATION);
  if (hasMaintenance && (await store.maintenance.get())) return;
  const list = needing.map((n) => `  ${n}: ${migrationTraffic[n]?.why ?? ''}`).join('\n');
  const stopped =
    'With every instance stopped, `hamlet migrate --maintenance-ok` applies them as they are.';
  throw new Error(
    hasMaintenance
      ? `${needing.length} pending migration(s) need maintenance mode, and it is off:\n${list}\n` +
          'Run `hamlet maintenance on` first (reads keep serving, writes wait with 503), then ' +
          '`hamlet migrate`, and `hamlet maintenance off` once every instance runs this version. ' +
          stopped
      : `${needing.length} pending migration(s) cannot run under traffic:\n${list}\n` +
          `This database predates maintenance mode (${MAINTENANCE_MIGRATION}), so the instances ` +
          `serving it cannot pause writes. ${stopped}`,
  );
}

async function migrateTo(store: Store, target: string): Promise<void> {
  const { applied, reverted } = await store.migrateTo(target);
  if (reverted.length)
    console.log(`Reverted ${reverted.length} migration(s): ${reverted.join(', ')}`);
  if (applied.length) console.log(`Applied ${applied.length} migration(s): ${applied.join(', ')}`);
  console.log(`The schema is at ${target}.`);
}

function flagOf(name: string): string {
  const flag = migrationTraffic[name];
  return flag ? `${flag.traffic.padEnd(22)}  ${flag.why}` : '';
}

async function printStatus(store: Store): Promise<void> {
  const state = await store.schemaState();
  const width = Math.max(0, ...[...state.applied, ...state.pending].map((n) => n.length));
  for (const name of state.applied) console.log(`applied   ${name.padEnd(width)}  ${flagOf(name)}`);
  for (const name of state.pending) console.log(`pending   ${name.padEnd(width)}  ${flagOf(name)}`);
  for (const name of state.unknown) console.log(`unknown   ${name}   (applied by a newer version)`);
  const needing = needingMaintenance(state.pending);
  if (state.applied.length && needing.length)
    console.log(
      `\n${needing.length} pending migration(s) need maintenance mode: run \`hamlet maintenance on\` before \`hamlet migrate\`.`,
    );
}
