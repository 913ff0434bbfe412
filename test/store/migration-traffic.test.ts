// Every migration declares whether it may run while the previous release serves: each file in
// src/store/migrations exports `traffic` (a flag and why), the ordered list carries the same flag
// for every migration it runs, and a migration whose up() drops or renames a column or table is
// never called safe under traffic (the previous release still reads it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationTraffic, migrations } from '../../src/store/migrations/index.ts';
import type { TrafficFlag } from '../../src/store/migrations/traffic.ts';

const DIR = join(import.meta.dirname, '../../src/store/migrations');
const files = readdirSync(DIR).filter((f) => /^\d{4}_.*\.ts$/.test(f));
// Run from the compiled copy of the checkout (the test command), each file is imported as its .js twin.
const compiled = import.meta.url.endsWith('.js');

test('every migration file declares its traffic flag, and the list carries it', async () => {
  assert.ok(files.length >= 40, `found ${files.length} migration files`);
  for (const file of files) {
    const name = file.replace(/\.ts$/, '');
    const module = join(DIR, compiled ? `${name}.js` : file);
    const declared = ((await import(module)) as { traffic?: TrafficFlag }).traffic;
    assert.ok(declared, `${file} exports no \`traffic\` (safeUnderTraffic or needsMaintenance)`);
    assert.ok(
      ['safe under traffic', 'needs maintenance mode'].includes(declared.traffic),
      `${file}: unknown flag ${declared.traffic}`,
    );
    assert.ok(declared.why.trim().length >= 8, `${file}: say why in a few words`);
    assert.deepEqual(migrationTraffic[name], declared, `${name} in the list with its own flag`);
  }
  for (const dialect of ['sqlite', 'postgres'] as const)
    assert.deepEqual(
      Object.keys(migrations(dialect)).sort(),
      Object.keys(migrationTraffic).sort(),
      `every ${dialect} migration has a flag, and only those`,
    );
});

test('a migration that drops or renames what the previous release reads needs maintenance', () => {
  const breaking =
    /dropColumn\(|renameColumn\(|renameTo\(|\bdrop column\b|\brename (column|to)\b|dropTable\(|\bdrop table\b/i;
  for (const file of files) {
    const source = readFileSync(join(DIR, file), 'utf8');
    // What each up() does (a migration per dialect has two): from `async up(` to its `async down(`.
    const up = source
      .split(/async up\(/)
      .slice(1)
      .map((part) => part.split(/async down\(/)[0])
      .join('\n');
    const name = file.replace(/\.ts$/, '');
    if (breaking.test(up))
      assert.equal(
        migrationTraffic[name]?.traffic,
        'needs maintenance mode',
        `${name} drops or renames in up(): the previous release may still read it`,
      );
  }
});
