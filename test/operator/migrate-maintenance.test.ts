// `hamlet migrate` and the migrations' traffic flags, on both engines, as an operator upgrades:
// `--status` shows each migration's flag and says when a pending one needs maintenance mode;
// `migrate` then refuses, applying nothing, until `hamlet maintenance on` (which works on the schema
// still behind this version) or `--maintenance-ok`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';
import { postgresFromTemplate, sqliteFromTemplate } from '../helpers/template.ts';
import { migrationTraffic } from '../../src/store/migrations/index.ts';
import { needsMaintenanceMode } from '../../src/store/migrations/traffic.ts';

/** The migrations after 0114_maintenance, in order: what the upgrade below applies. */
const AFTER_0114 = Object.keys(migrationTraffic)
  .filter((name) => name > '0114_maintenance')
  .sort();
const NEED_MAINTENANCE = AFTER_0114.filter((name) =>
  needsMaintenanceMode(migrationTraffic[name]!),
).length;

async function upgrade(url: string): Promise<void> {
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: url });
  // As the previous release left it: 0115 (needs maintenance) and 0116 (safe) pending.
  assert.equal((await cli('migrate', '--to', '0114_maintenance')).code, 0);

  const status = await cli('migrate', '--status');
  assert.match(status.out, /applied {3}0114_maintenance +safe under traffic +a new table\n/);
  assert.match(status.out, /pending {3}0115_agent_knowledge +needs maintenance mode +new tables/);
  assert.match(status.out, /pending {3}0116_topic_reads +safe under traffic/);
  assert.match(
    status.out,
    new RegExp(
      `${NEED_MAINTENANCE} pending migration\\(s\\) need maintenance mode: run \`hamlet maintenance on\``,
    ),
  );

  const refused = await cli('migrate');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /need maintenance mode, and it is off:\n {2}0115_agent_knowledge: /);
  assert.match(refused.err, /Run `hamlet maintenance on` first/);
  assert.match(
    (await cli('migrate', '--status')).out,
    /pending {3}0116_topic_reads/,
    'nothing applied',
  );

  const on = await cli('maintenance', 'on', '--message', 'Upgrading');
  assert.equal(on.code, 0, on.err);
  assert.match(on.out, /Maintenance is on/);
  const up = await cli('migrate');
  assert.equal(up.code, 0, up.err);
  assert.match(
    up.out,
    new RegExp(`Applied ${AFTER_0114.length} migration\\(s\\): ${AFTER_0114.join(', ')}\n`),
  );
  assert.equal((await cli('maintenance', 'off')).code, 0);
  assert.match((await cli('migrate')).out, /The database is up to date/);

  // Stopped instances: the operator says so instead.
  assert.equal((await cli('migrate', '--to', '0114_maintenance')).code, 0);
  const stopped = await cli('migrate', '--maintenance-ok');
  assert.equal(stopped.code, 0, stopped.err);
  assert.match(stopped.out, new RegExp(`Applied ${AFTER_0114.length} migration\\(s\\)`));
}

test('migrate follows the traffic flags (sqlite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-traffic-'));
  try {
    const file = join(dir, 'hamlet.db');
    await sqliteFromTemplate(file, 'migrated');
    await upgrade(`sqlite:${file}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const pg = await postgresFromTemplate('traffic', 'migrated');
test(
  'migrate follows the traffic flags (postgres)',
  { skip: !pg.ok && !pg.fail && pg.reason },
  async () => {
    if (!pg.ok) return assert.fail(pg.reason);
    try {
      await upgrade(pg.url);
    } finally {
      await pg.drop();
    }
  },
);
