// One learning pass over a community's thread profiles (./profiles.ts): what ./lexicon.ts keeps
// and stores for that community.
//
//   df        in how many topics each term occurs (terms seen in two topics or more), and the
//             number of topics: the idf of the thread-field ranking (./rerank.ts)
//   related   term associations: for each term, the terms that occur in the same topics far more
//             often than chance (Dunning's log-likelihood ratio G² over topic co-occurrence of
//             each topic's most characteristic terms), RELATED at most, strongest first
//
// Only the community's own profiles are read: its words are never mixed with another's.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { decodeProfile } from './profiles.ts';

/** Most characteristic terms kept per topic (by tf × idf), the units of co-occurrence. */
const TOPIC_TERMS = 20;
/** Associations kept per term, and the least G² one must have. */
const RELATED = 5;
const MIN_G2 = 10;
/** Profiles read per batch. */
const BATCH = 1000;

export type Knowledge = {
  posts: number;
  topics: number;
  /** Term → topics holding it (only terms in ≥ 2 topics). */
  df: Map<string, number>;
  /** Term → related terms with weights in (0, 1] (1 = that term's strongest association). */
  related: Map<string, [string, number][]>;
};

/** Reads every profile of the community once; associations only when asked for (they cost a pass over co-occurrences). */
export async function learn(
  db: Kysely<Database>,
  communityId: string,
  posts: number,
  associations: boolean,
): Promise<Knowledge> {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const topicTerms: { ids: Int32Array; tf: Float32Array }[] = [];
  let dfAll = new Int32Array(1024);
  let topics = 0;
  for (let after: string | undefined; ;) {
    const batch = await sql<{ topic_id: string; terms: string }>`
      select topic_id, terms from search_profiles where community_id = ${communityId}
      ${after === undefined ? sql`` : sql`and topic_id > ${after}`} order by topic_id limit ${BATCH}`.execute(
      db,
    );
    if (batch.rows.length === 0) break;
    after = batch.rows[batch.rows.length - 1]!.topic_id;
    for (const row of batch.rows) {
      const counts = decodeProfile({
        topicId: row.topic_id,
        communityId,
        terms: row.terms,
        lengths: [0, 0, 0, 0],
      });
      const tIds = new Int32Array(counts.size);
      const tf = new Float32Array(counts.size);
      let i = 0;
      for (const [term, c] of counts) {
        let id = ids.get(term);
        if (id === undefined) {
          id = names.length;
          ids.set(term, id);
          names.push(term);
        }
        if (id >= dfAll.length) {
          const grown = new Int32Array(dfAll.length * 2);
          grown.set(dfAll);
          dfAll = grown;
        }
        dfAll[id]!++;
        tIds[i] = id;
        tf[i++] = c[0] + c[1] + c[2] + c[3];
      }
      topics++;
      if (associations) topicTerms.push({ ids: tIds, tf });
    }
  }
  const n = topics;
  const df = new Map<string, number>();
  names.forEach((t, id) => {
    if (dfAll[id]! >= 2) df.set(t, dfAll[id]!);
  });
  const related = new Map<string, [string, number][]>();
  if (!associations) return { posts, topics: n, df, related };

  // Each topic's most characteristic terms (tf × idf among terms in 3..n/10 topics), the topics of
  // each such term, then per term its co-occurring terms scored by G².
  const maxDf = Math.max(3, Math.floor(n / 10));
  const idf = (d: number) => Math.log(1 + (n - d + 0.5) / (d + 0.5));
  const top: Int32Array[] = [];
  const postings = new Map<number, number[]>();
  topicTerms.forEach(({ ids: tIds, tf }, topic) => {
    const ranked: [number, number][] = [];
    tIds.forEach((id, i) => {
      const d = dfAll[id]!;
      if (d >= 3 && d <= maxDf) ranked.push([id, Math.log(1 + tf[i]!) * idf(d)]);
    });
    ranked.sort((a, b) => b[1] - a[1]);
    const kept = Int32Array.from(ranked.slice(0, TOPIC_TERMS).map(([id]) => id));
    top.push(kept);
    for (const id of kept) (postings.get(id) ?? postings.set(id, []).get(id)!).push(topic);
  });
  for (const [id, list] of postings) {
    const co = new Map<number, number>();
    for (const topic of list)
      for (const other of top[topic]!) if (other !== id) co.set(other, (co.get(other) ?? 0) + 1);
    const a = list.length;
    const scored: [string, number][] = [];
    for (const [other, k] of co) {
      if (k < 2) continue;
      const b = postings.get(other)!.length;
      // Only terms seen together more often than chance.
      if (k * n <= a * b) continue;
      const g = g2(k, a, b, n);
      if (g >= MIN_G2) scored.push([names[other]!, g]);
    }
    if (scored.length === 0) continue;
    scored.sort((x, y) => y[1] - x[1]);
    const best = scored[0]![1];
    related.set(
      names[id]!,
      scored.slice(0, RELATED).map(([t, g]) => [t, Math.round((g / best) * 1000) / 1000]),
    );
  }
  return { posts, topics: n, df, related };
}

/** Dunning's log-likelihood ratio for k co-occurrences of terms in a and b of n topics. */
export function g2(k: number, a: number, b: number, n: number): number {
  const cells = [k, a - k, b - k, n - a - b + k];
  const h = (xs: number[]) => {
    const total = xs.reduce((s, x) => s + x, 0);
    return xs.reduce((s, x) => s + (x > 0 ? x * Math.log(x / total) : 0), 0);
  };
  return (
    2 *
    (h(cells) -
      h([cells[0]! + cells[1]!, cells[2]! + cells[3]!]) -
      h([cells[0]! + cells[2]!, cells[1]! + cells[3]!]))
  );
}

/** The stored form (migration 0022): " term=n …" and " term=other:0.83,other2:0.5 …". */
export function encodeKnowledge(k: Knowledge): { df: string; related: string } {
  let df = '';
  for (const [t, n] of k.df) df += ` ${t}=${n}`;
  let related = '';
  for (const [t, list] of k.related)
    related += ` ${t}=${list.map(([o, w]) => `${o}:${w}`).join(',')}`;
  return { df, related };
}

export function decodeKnowledge(row: {
  posts: number;
  topics: number;
  df: string;
  related: string;
}): Knowledge {
  const df = new Map<string, number>();
  for (const entry of row.df.split(' ')) {
    const eq = entry.indexOf('=');
    if (eq > 0) df.set(entry.slice(0, eq), Number(entry.slice(eq + 1)));
  }
  const related = new Map<string, [string, number][]>();
  for (const entry of row.related.split(' ')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    related.set(
      entry.slice(0, eq),
      entry
        .slice(eq + 1)
        .split(',')
        .map((x) => {
          const colon = x.lastIndexOf(':');
          return [x.slice(0, colon), Number(x.slice(colon + 1))];
        }),
    );
  }
  return { posts: Number(row.posts), topics: Number(row.topics), df, related };
}
