// `hamlet import mail` of one long reply chain into a SQLite file that this process keeps writing
// to: the import commits in short transactions with pauses between them, so every write here gets
// the lock within a bounded wait (none fails, none waits for the whole thread), and the import still
// ends complete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/config.ts';
import { openStore } from '../../src/store/open.ts';
import { CommunityService } from '../../src/domain/communities.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { writeMailChain } from './mail-chain.ts';
import { snapshot } from './snapshot.ts';
import { hamletArgs } from '../helpers/hamlet-bin.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-import-lock-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

const CHAIN = 1000;

test('a 1000-message thread imported beside a live writer: every write gets its turn, the import completes', async (t) => {
  const file = join(dir, 'live.db');
  const config = loadConfig({ DATABASE_URL: `sqlite:${file}` });
  const store = await openStore(config.databaseUrl);
  try {
    await new CommunityService(store).create(systemActor(), { slug: 'lists', name: 'Lists' });
    const mbox = join(dir, 'chain.mbox');
    writeMailChain(mbox, CHAIN);

    const child = spawn(
      process.execPath,
      [...(await hamletArgs()), 'import', 'mail', mbox, '--community', 'lists'],
      {
        env: { ...process.env, DATABASE_URL: config.databaseUrl },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let importingSince: number | undefined;
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => {
      out += c;
      if (importingSince === undefined && /importing: 0\//.test(out))
        importingSince = performance.now();
    });
    let exitedAt: number | undefined;
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        exitedAt = performance.now();
        resolve(code);
      }),
    );

    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const writes: { start: number; ms: number }[] = [];
    for (let i = 0; exitedAt === undefined; i++) {
      const start = performance.now();
      if (i % 2 === 0) await store.people.create({ displayName: `Writer ${i}` });
      else await store.transaction((tx) => tx.people.create({ displayName: `Writer ${i}` }));
      writes.push({ start, ms: performance.now() - start });
      await new Promise((r) => setTimeout(r, 50));
    }
    delay.disable();
    assert.equal(await exited, 0, out);
    assert.match(out, new RegExp(`Imported ${CHAIN} posts in 1 new topics`));

    const during = writes.filter((w) => importingSince !== undefined && w.start >= importingSince);
    const slowest = Math.max(...during.map((w) => w.ms));
    t.diagnostic(
      `${during.length} writes while importing, slowest ${slowest.toFixed(0)} ms; event loop max ${(delay.max / 1e6).toFixed(0)} ms`,
    );
    assert.ok(during.length >= 5, `only ${during.length} writes happened while the import wrote`);
    assert.ok(slowest < 1500, `a write waited ${slowest.toFixed(0)} ms for the importer's lock`);
    const imported = await snapshot(store, 'lists');
    assert.deepEqual([imported.topics, imported.posts, imported.imported], [1, CHAIN, CHAIN]);
  } finally {
    await store.close();
  }
});
