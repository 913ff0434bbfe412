// Child-process entry of bench/heavy-page.ts: starts a real Hamlet on the demo data (SQLite in a
// temporary directory, or DATABASE_URL), writes the heavy topic through the content service (a
// question and `replies` replies, each ~`kb` KB of a Markdown table of one-digit cells, the shape
// that renders to the most HTML per byte of Markdown short of alignment styles), and reports the
// port and the topic's slug. Uses only services that exist on older checkouts, so the same file runs
// on the base commit for the "before" figures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/config.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';
import { startHamlet } from '../../src/main.ts';

const replies = Number(process.argv[2] ?? 29);
const kb = Number(process.argv[3] ?? 43);

/** A Markdown table of 12 columns of one-digit cells, `bytes` long. */
export function table(bytes: number, seed: number): string {
  const cols = 12;
  const head = '|' + Array.from({ length: cols }, (_, c) => ` c${c} |`).join('');
  let out = `Measurements, run ${seed}:\n\n${head}\n|${'---|'.repeat(cols)}\n`;
  for (let r = 0; out.length < bytes - 30; r++)
    out +=
      '|' +
      Array.from({ length: cols }, (_, c) => `${(r * 7 + c * 3 + seed) % 10}|`).join('') +
      '\n';
  return out;
}

const silent = new Writable({ write: (_c, _e, done) => done() });
const dir = mkdtempSync(join(tmpdir(), 'hamlet-heavy-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${join(dir, 'hamlet.db')}`,
  LOG_LEVEL: 'silent',
  HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
});
const hamlet = await startHamlet(config, {
  demo: true,
  handleSignals: false,
  logDestination: silent,
});
const system = systemActor('bench');
const acme = (await hamlet.store.communities.getBySlug('acme'))!;
const category = (await hamlet.services.content.listCategories(system, acme)).find(
  (c) => c.kind === 'discussion',
)!;
const written = performance.now();
const { writes } = hamlet.services;
const { topic } = await writeApplied(writes, system, acme, 'topic.create', {
  category: category.slug,
  title: `Heavy topic of Markdown tables ${Date.now()}`,
  body: table(kb * 1000, 0),
});
let markdown = kb * 1000;
for (let i = 1; i <= replies; i++) {
  const body = table(kb * 1000, i);
  markdown += body.length;
  await writeApplied(writes, system, acme, 'post.create', { topic: topic.id, body });
}
process.send!({
  port: new URL(hamlet.url).port,
  slug: topic.slug,
  posts: replies + 1,
  markdownBytes: markdown,
  writeMs: performance.now() - written,
});
process.on('disconnect', () => {
  hamlet
    .close()
    .finally(() => rmSync(dir, { recursive: true, force: true }))
    .then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('the heavy-page child did not close cleanly:', err);
        process.exit(1);
      },
    );
});
