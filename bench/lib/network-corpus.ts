// The network the scale bench searches: N small public communities of T topics each, in a database
// of either engine, with texts drawn from a Zipfian vocabulary (a few words in most posts, most
// words in few), as a network of real communities has them. Written in bulk
// (test/helpers/filler-communities.ts), the search profiles then built as a server would in the
// background, and an agent key minted for the first community (the search_community reference).
import { loadConfig } from '../../src/config/config.ts';
import { openHamlet } from '../../src/main.ts';
import { openDatabase } from '../../src/store/open.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { addFillerCommunities } from '../../test/helpers/filler-communities.ts';

const SYLLABLES =
  'ba be bi bo bu da de di do du fa fe fi fo ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo za ze zi zo'.split(
    ' ',
  );
/** Distinct words of the network's vocabulary. */
export const VOCABULARY = 20_000;

/** The word of Zipf rank `r` (0 is the most common): three or four syllables, the same every run. */
export function wordOf(r: number): string {
  let n = r + 7;
  let w = '';
  for (let i = 0; i < 3 || n > 0; i++) {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
    if (i >= 4) break;
  }
  return w;
}

/** A seeded generator (mulberry32): the same corpus on every run and engine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zipf (s = 1.07) over VOCABULARY ranks, by inverting its cumulative weights. */
function zipf(): (rand: () => number) => number {
  const cumulative = new Float64Array(VOCABULARY);
  let total = 0;
  for (let r = 0; r < VOCABULARY; r++) cumulative[r] = total += 1 / (r + 1) ** 1.07;
  return (rand) => {
    const x = rand() * total;
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** The topics of community `n`: titles of 4-8 words, bodies of 25-95, the same every run. */
function topicsOf(n: number, count: number, rank: (rand: () => number) => number) {
  const rand = random(1_000 + n);
  const words = (k: number) => Array.from({ length: k }, () => rank(rand));
  return Array.from({ length: count }, () => ({
    title: words(4 + Math.floor(rand() * 5)),
    body: words(25 + Math.floor(rand() * 70)),
  }));
}

/**
 * Search words a client of the first community might send: pairs of its words of middling
 * frequency (Zipf ranks 1,000-10,000: each in about 0.2-3% of the network's posts), so that both
 * the community and the network match them; the same every run.
 */
function queriesOf(topics: { title: number[]; body: number[] }[], count: number): string[] {
  const mid = [
    ...new Set(
      topics.flatMap((t) => [...t.title, ...t.body]).filter((r) => r >= 1_000 && r < 10_000),
    ),
  ];
  const rand = random(99);
  const pick = () => wordOf(mid[Math.floor(rand() * mid.length)]!);
  return Array.from({ length: count }, () => `${pick()} ${pick()}`);
}

export type NetworkCorpus = {
  /** The first community's slug and an agent key of it. */
  reference: { slug: string; key: string };
  /** Queries of words the first community holds (and the network, many times over). */
  queries: string[];
  buildSeconds: number;
  profileSeconds: number;
};

/** Builds the network into the (migrated on open) database at `databaseUrl`. */
export async function buildNetwork(
  databaseUrl: string,
  communities: number,
  topics: number,
  queries = 20,
): Promise<NetworkCorpus> {
  const opened = await openHamlet(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }), {
    migrate: true,
  });
  try {
    const rank = zipf();
    const text = (ranks: number[]) => ranks.map(wordOf).join(' ');
    const started = performance.now();
    const bulk = await openDatabase(databaseUrl);
    try {
      await addFillerCommunities(bulk.db, {
        count: communities,
        prefix: 'net',
        topics: (n) =>
          topicsOf(n, topics, rank).map((t) => ({ title: text(t.title), body: text(t.body) })),
      });
    } finally {
      await bulk.store.close();
    }
    const buildSeconds = (performance.now() - started) / 1e3;
    const profiling = performance.now();
    await opened.services.search.profiles.ready();
    const profileSeconds = (performance.now() - profiling) / 1e3;
    const first = (await opened.store.communities.getBySlug('net-0'))!;
    const { key } = await opened.services.agents.create(systemActor('bench'), first, {
      name: 'bench-agent',
      scopes: [],
    });
    return {
      reference: { slug: first.slug, key },
      queries: queriesOf(topicsOf(0, topics, rank), queries),
      buildSeconds,
      profileSeconds,
    };
  } finally {
    await opened.close();
  }
}
