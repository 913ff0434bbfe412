// `hamlet maintenance on [--message <text>] | off | status`: maintenance mode for every instance
// over the database (src/domain/maintenance.ts). While on, reads serve and writes get 503 with
// Retry-After and the message; serving instances follow within a few seconds. The procedures of
// docs/operations.md (restore, upgrades whose migrations need it) turn it on first and off last.
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { MAINTENANCE_MIGRATION } from './migrate.ts';
import { DEFAULT_MAINTENANCE_MESSAGE, MAINTENANCE_POLL_MS } from '../domain/maintenance.ts';

const USAGE = 'hamlet maintenance on [--message <text>] | off | status';

export const maintenanceCommand: Command = {
  name: 'maintenance',
  usage: USAGE,
  summary:
    'maintenance mode on every instance: reads serve, writes get 503 with the message (on [--message], off, status)',
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, { message: { type: 'string' } }, USAGE);
    const [what, ...rest] = positionals;
    if (rest.length || !['on', 'off', 'status'].includes(what ?? ''))
      throw new UsageError(`Usage: ${USAGE}`);
    if (values.message !== undefined && what !== 'on')
      throw new UsageError('--message goes with "on" only');
    const message = values.message?.trim() || DEFAULT_MAINTENANCE_MESSAGE;
    if (message.length > 500) throw new UsageError('--message: at most 500 characters');
    await withHamlet(
      async (store) => {
        // It runs on a schema behind this version too (the upgrade turns it on before migrating),
        // once the schema has maintenance mode at all.
        const schema = await store.schemaState();
        if (!schema.applied.includes(MAINTENANCE_MIGRATION))
          throw new Error(
            `This database predates maintenance mode (${MAINTENANCE_MIGRATION}): stop the instances instead, and run \`hamlet migrate --maintenance-ok\`.`,
          );
        if (what === 'on') await store.maintenance.set(message);
        if (what === 'off') await store.maintenance.set(null);
        const state = await store.maintenance.get();
        const within = `serving instances follow within ${MAINTENANCE_POLL_MS / 1000} s`;
        console.log(
          state
            ? `Maintenance is on since ${new Date(state.since).toISOString()}: reads serve, writes get 503 with "${state.message}" (${within}).`
            : `Maintenance is off: writes are taken${what === 'off' ? ` (${within})` : ''}.`,
        );
      },
      { requireCurrentSchema: false },
    );
  },
};
