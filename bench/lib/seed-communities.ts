// Creates `count` public communities (each with its starter category) in a database, through the
// CommunityService of a given checkout (its migrations, its services), so a bench can measure an
// older checkout on a database that checkout made itself. Run as a child process:
//
//   node --import tsx bench/lib/seed-communities.ts <checkout root> <DATABASE_URL> <count> <prefix>
//
// Communities are named <prefix>-<n>, each created as `hamlet community create` does (its own
// transaction); prints one JSON line: { created, ms }.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, databaseUrl, countText, prefix = 'scale'] = process.argv.slice(2);
if (!root || !databaseUrl || !countText)
  throw new Error('usage: seed-communities.ts <checkout root> <DATABASE_URL> <count> [prefix]');
const count = Number(countText);
const from = (path: string) => import(pathToFileURL(resolve(root, path)).href);

const { loadConfig } = await from('src/config/config.ts');
const { openHamlet } = await from('src/main.ts');
const { systemActor } = await from('src/domain/actor.ts');

const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' });
const opened = await openHamlet(config, { poolSize: 4 });
const started = performance.now();
try {
  const operator = systemActor();
  // A few creations at a time: SQLite takes them one after another anyway, PostgreSQL in parallel.
  const inFlight = opened.store.dialect === 'postgres' ? 4 : 1;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      await opened.services.communities.create(
        operator,
        {
          slug: `${prefix}-${n}`,
          name: `Scale community ${n}`,
          description: `Community number ${n}, made to measure Hamlet with many communities.`,
          visibility: 'public',
        },
        { starter: true },
      );
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
} finally {
  await opened.close();
}
console.log(JSON.stringify({ created: count, ms: Math.round(performance.now() - started) }));
