// Does one heavy topic page stall everyone? A real Hamlet (child process, SQLite, demo data) holds a
// topic of a question and 29 replies, each ~43 KB of Markdown table. One client fetches that topic's
// web page back to back while another polls /heartbeat every 10 ms; the reference is /heartbeat
// polled the same way with no page being fetched, measured first in the same run. Reported: the
// heartbeat's p50/p99 loaded and idle (the ratio), the page's time and size, its posts and how many
// pages the topic takes to read whole (following "More posts"). The community's home page, fetched
// the same way, shows what any page costs.
//
//   node --import tsx bench/heavy-page.ts                          # ~43 KB × 30 posts, 5 s idle, ≥15 s loaded
//   node --import tsx bench/heavy-page.ts --replies=29 --kb=43 --idle=5 --duration=15 --fetches=3
//
// Target: the heavy page costs everyone else no more than an ordinary page does, within 3×: the
// /heartbeat p99 while it is fetched at most 3× the p99 while the home page is fetched.
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { positiveNumber, readOptions } from './lib/options.ts';

const TARGET_RATIO = 3;
const raw = readOptions({
  replies: { default: '29', help: 'replies of the heavy topic (after its question)' },
  kb: { default: '43', help: 'KB of Markdown table per post' },
  idle: { default: '5', help: 'seconds of /heartbeat with no page fetched (the reference)' },
  duration: { default: '15', help: 'seconds, at least, of fetching the page' },
  fetches: { default: '3', help: 'page fetches, at least' },
});
const opts = {
  replies: Math.round(positiveNumber('replies', raw.replies)),
  kb: positiveNumber('kb', raw.kb),
  idle: positiveNumber('idle', raw.idle) * 1000,
  duration: positiveNumber('duration', raw.duration) * 1000,
  fetches: Math.round(positiveNumber('fetches', raw.fetches)),
};
const CHILD = fileURLToPath(new URL('./lib/heavy-child.ts', import.meta.url));
type Ready = { port: string; slug: string; posts: number; markdownBytes: number; writeMs: number };

/**
 * A GET over `agent` with a Host header of our choosing (fetch would drop it). A stall longer than
 * the server's keep-alive timeout makes it drop the idle socket as soon as its loop runs again: the
 * request is then sent once more on a new connection, timed from the first attempt.
 */
async function get(
  agent: Agent,
  port: number,
  host: string,
  path: string,
): Promise<{ status: number; ms: number; text: string; retried: boolean }> {
  const started = performance.now();
  try {
    return {
      ...(await once(agent, port, host, path)),
      ms: performance.now() - started,
      retried: false,
    };
  } catch (err) {
    if ((err as { code?: string }).code !== 'ECONNRESET') throw err;
    return {
      ...(await once(agent, port, host, path)),
      ms: performance.now() - started,
      retried: true,
    };
  }
}

async function once(
  agent: Agent,
  port: number,
  host: string,
  path: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname: '127.0.0.1', port, path, agent, headers: { host: `${host}:${port}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const ms = (x: number) => x.toFixed(1);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

const child = fork(CHILD, [String(opts.replies), String(opts.kb)], {
  // MCP_BENCH_CHILD_ARGS adds node flags to the server process, e.g. "--cpu-prof --cpu-prof-dir=prof".
  execArgv: [
    '--import',
    'tsx',
    ...(process.env.MCP_BENCH_CHILD_ARGS ?? '').split(/\s+/).filter(Boolean),
  ],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const ready = await new Promise<Ready>((resolve, reject) => {
  child.once('message', (m) => resolve(m as Ready));
  child.once('exit', (code) =>
    reject(new Error(`the Hamlet child exited (${code}) before it was ready`)),
  );
});
child.removeAllListeners('exit');
const port = Number(ready.port);
const host = 'acme.localhost';
const path = `/t/${ready.slug}`;
const beatAgent = new Agent({ keepAlive: true, maxSockets: 1 });
const pageAgent = new Agent({ keepAlive: true, maxSockets: 1 });

let dropped = 0;
/** /heartbeat every 10 ms until `until()` says stop; each sample is one full response. */
async function heartbeats(until: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!until()) {
    const r = await get(beatAgent, port, host, '/heartbeat');
    if (r.status !== 200) throw new Error(`/heartbeat answered ${r.status}`);
    if (r.retried) dropped++;
    out.push(r.ms);
    await sleep(10);
  }
  return out;
}

type Fetched = { ms: number; bytes: number; posts: number; more: string | null };

/** `path` fetched back to back for `duration` ms and `fetches` times at least, heartbeats beside. */
async function fetchedInLoop(
  path: string,
  duration: number,
  fetches: number,
): Promise<{ pages: Fetched[]; beats: number[] }> {
  const pages: Fetched[] = [];
  let loading = true;
  const beats = heartbeats(() => !loading);
  const end = performance.now() + duration;
  try {
    while (performance.now() < end || pages.length < fetches) {
      const r = await get(pageAgent, port, host, path);
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
      const more = /<a href="([^"]*cursor=[^"]*)">More posts<\/a>/.exec(r.text)?.[1] ?? null;
      const posts = r.text.match(/<article id="post-/g)?.length ?? 0;
      pages.push({ ms: r.ms, bytes: Buffer.byteLength(r.text), posts, more });
    }
  } finally {
    loading = false;
  }
  return { pages, beats: await beats };
}

try {
  console.log(
    `Heavy page: node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )}; ${ready.posts} posts, ${kb(ready.markdownBytes)} of Markdown, written in ${ms(ready.writeMs)} ms\n`,
  );
  // Warm-up: one heartbeat (JIT, sockets). The page itself is not warmed: its first fetch is measured.
  await get(beatAgent, port, host, '/heartbeat');
  const idleEnd = performance.now() + opts.idle;
  const idle = await heartbeats(() => performance.now() > idleEnd);

  const light = await fetchedInLoop('/', opts.duration / 3, opts.fetches);
  const heavy = await fetchedInLoop(path, opts.duration, opts.fetches);
  const pages = heavy.pages;
  const loadedBeats = heavy.beats;
  const droppedLoaded = dropped;

  // The whole topic, page after page (not timed against the heartbeat).
  let next: string | null = pages[0]!.more;
  let shown = pages[0]!.posts;
  let pageCount = 1;
  let allBytes = pages[0]!.bytes;
  while (next) {
    const r = await get(pageAgent, port, host, next.replace(/&amp;/g, '&'));
    if (r.status !== 200) throw new Error(`${next} answered ${r.status}`);
    shown += r.text.match(/<article id="post-/g)?.length ?? 0;
    allBytes += Buffer.byteLength(r.text);
    next = /<a href="([^"]*cursor=[^"]*)">More posts<\/a>/.exec(r.text)?.[1] ?? null;
    pageCount++;
  }

  console.log('/heartbeat          p50 ms   p99 ms   max ms   samples');
  for (const [name, xs] of [
    ['idle (reference)', idle],
    ['home page fetched', light.beats],
    ['heavy page fetched', loadedBeats],
  ] as const)
    console.log(
      `${name.padEnd(18)} ${ms(pct(xs, 50)).padStart(7)} ${ms(pct(xs, 99)).padStart(8)} ${ms(Math.max(...xs)).padStart(8)} ${String(xs.length).padStart(9)}`,
    );
  const times = pages.map((p) => p.ms);
  console.log(
    `\npage ${path}: ${pages.length} fetches, first ${ms(times[0]!)} ms, p50 ${ms(pct(times, 50))} ms, max ${ms(Math.max(...times))} ms; ${kb(pages[0]!.bytes)}, ${pages[0]!.posts} of ${ready.posts} posts`,
  );
  const lightTimes = light.pages.map((p) => p.ms);
  console.log(
    `home page /: ${light.pages.length} fetches, p50 ${ms(pct(lightTimes, 50))} ms; ${kb(light.pages[0]!.bytes)}`,
  );
  console.log(`whole topic: ${pageCount} page(s), ${shown} posts, ${kb(allBytes)} in all`);
  if (droppedLoaded)
    console.log(
      `(${droppedLoaded} heartbeat connection(s) dropped by the stalled server and retried; timed from the first attempt)`,
    );
  const ratio = (xs: number[], ys: number[], p: number) => (pct(xs, p) / pct(ys, p)).toFixed(2);
  const heavyVsHome = pct(loadedBeats, 99) / pct(light.beats, 99);
  console.log(
    `\n/heartbeat while the heavy page is fetched, against idle: p50 ${ratio(loadedBeats, idle, 50)}×, p99 ${ratio(loadedBeats, idle, 99)}×`,
  );
  console.log(
    `/heartbeat while the heavy page is fetched, against the home page: p50 ${ratio(loadedBeats, light.beats, 50)}×, p99 ${heavyVsHome.toFixed(2)}×  (target p99 ≤ ${TARGET_RATIO}×)  ${heavyVsHome <= TARGET_RATIO ? 'PASS' : 'MISS'}`,
  );
} finally {
  beatAgent.destroy();
  pageAgent.destroy();
  child.disconnect();
  await new Promise((r) => child.once('exit', r));
}
