// Web page time at scale: the community home and topic pages of a community of 100k posts, against
// the same pages of a small community (1k posts) served by the same process in the same run (the
// reference: the ratio shows whether page time grows with the community), and /heartbeat (the
// floor of the HTTP stack). Sequential requests over one keep-alive loopback connection; the time
// is the full response (status line to last byte) as a client next to the server sees it.
//
//   node --import tsx bench/web-pages.ts                 # 100k posts on SQLite (about 1 to 2 minutes to build)
//   node --import tsx bench/web-pages.ts --posts=20000 --requests=200
//   DATABASE_URL=postgres://… node --import tsx bench/web-pages.ts
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../src/config/config.ts';
import { startHamlet } from '../src/main.ts';
import type { Store } from '../src/store/repositories.ts';
import type { AuthorRef, Category } from '../src/store/types.ts';
import { positiveNumber, readOptions } from './lib/options.ts';

const raw = readOptions({
  posts: { default: '100000', help: 'posts in the large community' },
  requests: { default: '300', help: 'measured requests per page' },
  db: {
    default: '',
    help: 'SQLite file to keep and reuse (built on the first run); default a temporary one',
  },
});
const opts = {
  posts: positiveNumber('posts', raw.posts),
  requests: positiveNumber('requests', raw.requests),
};
const WORDS =
  'webhook signature header timestamp secret receiver agent key scope topic reply answer search index database postgres sqlite migrate config token session cookie cache latency deploy proxy tenant community moderator approval queue'.split(
    ' ',
  );

function body(seed: number, words: number): string {
  let out = '';
  for (let i = 0; i < words; i++)
    out += `${WORDS[(seed * 7 + i * 13) % WORDS.length]}${i % 12 === 11 ? '.\n\n' : ' '}`;
  return `${out}\n\n\`\`\`\nexample ${seed}\n\`\`\``;
}

/** A community of `posts` posts: topics of 5 posts, and one topic of 30 posts (the topic page measured). */
async function fill(store: Store, slug: string, posts: number): Promise<string> {
  const community = await store.communities.create({ slug, name: slug, visibility: 'public' });
  const scope = store.community(community.id);
  const categories: Category[] = [];
  for (const c of ['support', 'general', 'ideas', 'bugs', 'howto'])
    categories.push(await scope.categories.create({ slug: c, name: c, kind: 'discussion' }));
  const people: AuthorRef[] = [];
  for (let i = 0; i < 50; i++)
    people.push({
      kind: 'person',
      id: (await store.people.create({ displayName: `person ${i}` })).id,
      name: `person ${i}`,
    });
  const agent = await scope.agents.create({ name: 'bench-bot' });
  const bot: AuthorRef = { kind: 'agent', id: agent.id, name: agent.name };
  let made = 0;
  let t = 0;
  const start = Date.parse('2024-01-01T00:00:00Z');
  const big = 'the-long-topic';
  while (made < posts) {
    await store.transaction(async (tx) => {
      const s = tx.community(community.id);
      for (let k = 0; k < 200 && made < posts; k++, t++) {
        const size = t === 0 ? 30 : 5;
        const at = (n: number) => new Date(start + t * 60_000 + n * 1000).toISOString();
        const topic = await s.topics.create({
          categoryId: categories[t % 5]!.id,
          slug: t === 0 ? big : `topic-${t}`,
          title: `Topic ${t}: ${WORDS[t % WORDS.length]} ${WORDS[(t * 3) % WORDS.length]} question`,
          author: people[t % 50]!,
          tags: [WORDS[t % WORDS.length]!],
          createdAt: at(0),
        });
        let answer: string | undefined;
        for (let n = 0; n < size && made < posts; n++, made++) {
          const p = await s.posts.create({
            topicId: topic.id,
            author: n % 4 === 1 ? bot : people[(t + n) % 50]!,
            body: body(t + n, 60),
            createdAt: at(n),
          });
          if (n === 1) answer = p.id;
        }
        if (answer && t % 3 === 0) await s.topics.update(topic.id, { solutionPostId: answer });
      }
    });
  }
  return big;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
async function get(
  port: number,
  host: string,
  path: string,
): Promise<{ status: number; ms: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname: '127.0.0.1', port, path, agent, headers: { host: `${host}:${port}` } },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function measure(
  port: number,
  host: string,
  path: string,
  n: number,
): Promise<{ p50: number; p95: number; bytes: number }> {
  for (let i = 0; i < 20; i++) await get(port, host, path); // warm-up
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const r = await get(port, host, path);
    if (r.status !== 200) throw new Error(`${host}${path} answered ${r.status}`);
    times.push(r.ms);
    bytes = r.bytes;
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(n * 0.5)]!, p95: times[Math.floor(n * 0.95)]!, bytes };
}

const dir = mkdtempSync(join(tmpdir(), 'hamlet-web-bench-'));
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${raw.db || join(dir, 'bench.db')}`;
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'silent',
  HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
});
const h = await startHamlet(config, {
  handleSignals: false,
  logDestination: new Writable({ write: (_c, _e, done) => done() }),
});
const port = Number(new URL(h.url).port);
try {
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; database: ${h.store.dialect}`,
  );
  const built = performance.now();
  const reused = Boolean(await h.store.communities.getBySlug('large'));
  const bigTopic = reused ? 'the-long-topic' : await fill(h.store, 'large', opts.posts);
  const smallTopic = reused ? 'the-long-topic' : await fill(h.store, 'small', 1_000);
  console.log(
    reused
      ? 'reusing the communities of the kept database'
      : `built ${opts.posts} + 1000 posts in ${((performance.now() - built) / 1000).toFixed(1)} s`,
  );

  const rows: Array<[string, string, string]> = [
    ['home', '/', '/'],
    ['topic (30 posts)', `/t/${bigTopic}`, `/t/${smallTopic}`],
    ['topic (5 posts)', '/t/topic-7', '/t/topic-7'],
    ['category', '/categories/support', '/categories/support'],
  ];
  const floor = await measure(port, 'large.localhost', '/heartbeat', opts.requests);
  console.log(`\n/heartbeat (HTTP floor): p50 ${floor.p50.toFixed(2)} ms\n`);
  console.log('page               100k p50   p95     1k p50   ratio 100k/1k   KB    under 50 ms');
  for (const [name, large, small] of rows) {
    const a = await measure(port, 'large.localhost', large, opts.requests);
    const b = await measure(port, 'small.localhost', small, opts.requests);
    console.log(
      `${name.padEnd(18)} ${a.p50.toFixed(2).padStart(8)} ${a.p95.toFixed(2).padStart(6)} ${b.p50.toFixed(2).padStart(9)} ${(a.p50 / b.p50).toFixed(2).padStart(12)}×  ${(a.bytes / 1024).toFixed(0).padStart(5)}   ${a.p95 < 50 ? 'yes' : 'NO'}`,
    );
  }
} finally {
  agent.destroy();
  await h.close();
  rmSync(dir, { recursive: true, force: true });
}
