import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './src/config/config.ts';
import { openStore } from './src/store/open.ts';
import { ContentService } from './src/domain/content.ts';
import { CommunityService } from './src/domain/communities.ts';
import { systemActor } from './src/domain/actor.ts';
function table(bytes: number, seed: number): string {
  const cols = 12;
  const head = '|' + Array.from({ length: cols }, (_, c) => ` c${c} |`).join('');
  let out = `Measurements, run ${seed}:\n\n${head}\n|${'---|'.repeat(cols)}\n`;
  for (let r = 0; out.length < bytes - 30; r++)
    out += '|' + Array.from({ length: cols }, (_, c) => `${(r * 7 + c * 3 + seed) % 10}|`).join('') + '\n';
  return out;
}
const dir = mkdtempSync(join(tmpdir(), 'tt-'));
const store = await openStore(`sqlite:${join(dir, 'x.db')}`);
const config = loadConfig({});
const content = new ContentService(store, config);
const sys = systemActor('t');
const cs = new CommunityService(store);
await cs.create(sys, { slug: 'acme', name: 'Acme' });
const acme = await cs.require(sys, 'acme');
await content.createCategory(sys, acme, { name: 'Support' });
const { topic } = await content.createTopic(sys, acme, { category: 'support', title: 'heavy topic here', body: table(43000, 0) });
for (let i = 1; i < 30; i++) await content.reply(sys, acme, { topic: topic.id, body: table(43000, i) });
const scope = store.community(acme.id);
for (let k = 0; k < 5; k++) {
  let t0 = performance.now();
  const p = await scope.posts.listByTopic(topic.id, { limit: 30, bytes: { of: 'html', max: 1048576 } });
  let t1 = performance.now();
  const g = await content.getTopic(sys, acme, { topic: topic.id, limit: 30 }, 'html');
  let t2 = performance.now();
  const all = await scope.posts.listByTopic(topic.id, { limit: 30 });
  let t3 = performance.now();
  console.log(`store bytes-page ${(t1-t0).toFixed(1)} ms (${p.items.length}), getTopic ${(t2-t1).toFixed(1)} ms (${g.posts.length}), store all 30 ${(t3-t1-(t2-t1)).toFixed(1)} ms`);
}
await store.close();
