// The CLI's commands with DATABASE_URL pointing at a temp file. The first command runs
// `node bin/hamlet.js …` itself, as the operator types it (the checkout's entry point, through tsx);
// the others run the same commands inside the test process (test/helpers/cli.ts runCli).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';
import { question, answer } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-cli-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const env = {
  DATABASE_URL: `sqlite:${join(dir, 'cli.db')}`,
  HAMLET_BASE_DOMAIN: 'localhost',
  PORT: '8787',
};

const hamlet = (...args: string[]) => runCli(args, env);

/** `node bin/hamlet.js …`, as the operator types it. */
function hamletBin(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/hamlet.js', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// Only `serve` and `migrate` create or change the schema; the other commands need it in place.
test.before(async () => assert.equal((await hamlet('migrate')).code, 0));

test('community create, then the same slug again, a bad slug and a missing --name fail clearly', async () => {
  const ok = hamletBin(
    'community',
    'create',
    'acme-labs',
    '--name',
    'Acme Labs',
    '--private',
    '--description',
    'R&D',
  );
  assert.equal(ok.code, 0, ok.err);
  assert.match(
    ok.out,
    /Created private community "acme-labs" .* at http:\/\/localhost:8787\/c\/acme-labs\//,
  );

  const again = await hamlet('community', 'create', 'acme-labs', '--name', 'Other');
  assert.equal(again.code, 1);
  assert.match(again.err, /already exists/);

  const bad = await hamlet('community', 'create', 'Not_A_Slug', '--name', 'x');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /slug: must be 2-63 characters/);

  const noName = await hamlet('community', 'create', 'fine-slug');
  assert.equal(noName.code, 0, noName.err);
  assert.match(noName.out, /Created public community "fine-slug"/);
  assert.match(noName.out, /the category "general"/);
});

test('import mail reports what it did, refuses unknown communities and unreadable paths', async () => {
  writeFileSync(join(dir, 'q.eml'), question);
  writeFileSync(join(dir, 'a.eml'), answer);
  assert.equal((await hamlet('community', 'create', 'lists', '--name', 'Lists')).code, 0);
  const first = await hamlet(
    'import',
    'mail',
    join(dir, 'q.eml'),
    join(dir, 'a.eml'),
    '--community',
    'lists',
  );
  assert.equal(first.code, 0, first.err);
  assert.match(first.out, /Imported 2 posts in 1 new topics from 2 messages/);
  assert.match(
    first.err,
    /importing: 2\/2 \(100%\)/,
    'plain progress lines when stderr is not a terminal',
  );
  const second = await hamlet(
    'import',
    'mail',
    join(dir, 'q.eml'),
    join(dir, 'a.eml'),
    '--community',
    'lists',
  );
  assert.match(second.out, /Imported 0 posts in 0 new topics .*2 already imported/);

  const ghost = await hamlet('import', 'mail', join(dir, 'q.eml'), '--community', 'ghost');
  assert.equal(ghost.code, 1);
  assert.match(ghost.err, /No community "ghost"\. Create it first/);
  const missing = await hamlet('import', 'mail', join(dir, 'nope.mbox'), '--community', 'lists');
  assert.equal(missing.code, 1);
  assert.match(missing.err, /Cannot read ".*nope\.mbox"/);
  assert.equal((await hamlet('import', 'mail', '--community', 'lists')).code, 2);
});

test('migrate is idempotent and seed demo creates the demo only once', async () => {
  const migrate = await hamlet('migrate');
  assert.equal(migrate.code, 0, migrate.err);
  assert.match(migrate.out, /up to date/);
  const seed = await hamlet('seed', 'demo');
  assert.equal(seed.code, 0, seed.err);
  assert.match(seed.out, /Created the demo: acme \(public\), skunkworks \(private\)/);
  const again = await hamlet('seed', 'demo');
  assert.match(again.out, /already exists\. Nothing to do/);
});
