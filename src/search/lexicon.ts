// What search learns from one community's own text, per community (a community's words are only
// ever used to rank searches of that community: private words never reach another one's results):
//
//   df        in how many topics each term occurs (terms seen in two topics or more), and the
//             number of topics: the idf of the thread-field ranking (./rerank.ts)
//   related   term associations: for a term, the terms that occur in the same topics far more
//             often than chance (Dunning's log-likelihood ratio G² over topic co-occurrence of
//             each topic's most characteristic terms), computed on first use per term and cached
//
// Learned by a background pass over the community's thread profiles (./profiles.ts), never on the
// request path: a search uses what has been learned so far (nothing, until the first pass ends)
// and starts a new pass when the community has grown by REBUILD_GROWTH since the last one.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { decodeProfile, type Profiles } from './profiles.ts';

/** Most characteristic terms kept per topic (by tf × idf), the units of co-occurrence. */
const TOPIC_TERMS = 20;
/** Associations kept per term, and the least G² one must have. */
const RELATED = 5;
const MIN_G2 = 10;
/** A new pass when the post count grew by this fraction (or 20 posts) since the last one. */
const REBUILD_GROWTH = 0.1;
/** How often a search may check a community's post count (ms). */
const CHECK_EVERY_MS = 30_000;
/** Profiles read per batch. */
const BATCH_TOPICS = 1000;

export type Learned = {
  communityId: string;
  posts: number;
  topics: number;
  /** Term → topics holding it (only terms in ≥ 2 topics). */
  df: Map<string, number>;
  /** Related terms with weights in (0, 1] (1 = the strongest association of that term). */
  related(term: string): [string, number][];
};

type Model = Learned & { builtAt: number; bytes: number };

export class Lexicon {
  private readonly models = new Map<string, Model>();
  private readonly building = new Map<string, Promise<void>>();
  private readonly checkedAt = new Map<string, number>();

  constructor(private readonly db: Kysely<Database>, private readonly profiles: Profiles) {}

  /** What has been learned for these communities so far; starts a pass where one is due. Never waits. */
  learned(communityIds: string[]): Map<string, Learned> {
    const out = new Map<string, Learned>();
    for (const id of communityIds) {
      const m = this.models.get(id);
      if (m) out.set(id, m);
      const now = Date.now();
      if (!this.building.has(id) && now - (this.checkedAt.get(id) ?? 0) >= CHECK_EVERY_MS) {
        this.checkedAt.set(id, now);
        this.refresh(id).catch(() => {});
      }
    }
    return out;
  }

  /** Waits for every due pass of these communities (a first pass, or one after growth). */
  async ready(communityIds: string[]): Promise<void> {
    await Promise.all(communityIds.map((id) => this.refresh(id)));
  }

  /** Memory held by the learned models (estimate: strings as UTF-16, map entries ~80 bytes). */
  stats(): { communities: number; terms: number; bytes: number } {
    let terms = 0;
    let bytes = 0;
    for (const m of this.models.values()) {
      terms += m.df.size;
      bytes += m.bytes;
    }
    return { communities: this.models.size, terms, bytes };
  }

  private async refresh(communityId: string): Promise<void> {
    const pending = this.building.get(communityId);
    if (pending) return pending;
    const p = (async () => {
      const r = await sql<{ n: number | string }>`select count(*) as n from posts where community_id = ${communityId}`.execute(this.db);
      const posts = Number(r.rows[0]?.n ?? 0);
      const old = this.models.get(communityId);
      if (old && posts - old.posts < Math.max(20, old.posts * REBUILD_GROWTH)) return;
      this.models.set(communityId, await this.build(communityId, posts));
    })();
    this.building.set(communityId, p);
    return p.finally(() => this.building.delete(communityId));
  }

  /** One pass over the community's topics, BATCH_TOPICS at a time. */
  private async build(communityId: string, posts: number): Promise<Model> {
    const ids = new Map<string, number>();
    const names: string[] = [];
    const intern = (t: string) => {
      let id = ids.get(t);
      if (id === undefined) {
        id = names.length;
        ids.set(t, id);
        names.push(t);
      }
      return id;
    };
    const topicTerms: { ids: Int32Array; tf: Float32Array }[] = [];
    let dfAll = new Int32Array(1024);
    // The stored thread profiles (./profiles.ts), made current first: no post is re-read or re-tokenized.
    await this.profiles.ready();
    for (let after: string | undefined; ;) {
      const batch = await sql<{ topic_id: string; terms: string }>`
        select topic_id, terms from search_profiles where community_id = ${communityId}
        ${after === undefined ? sql`` : sql`and topic_id > ${after}`} order by topic_id limit ${BATCH_TOPICS}`.execute(this.db);
      if (batch.rows.length === 0) break;
      after = batch.rows[batch.rows.length - 1]!.topic_id;
      for (const row of batch.rows) {
        const counts = decodeProfile({ topicId: row.topic_id, communityId, terms: row.terms, lengths: [0, 0, 0, 0] });
        const tIds = new Int32Array(counts.size);
        const tf = new Float32Array(counts.size);
        let i = 0;
        for (const [term, c] of counts) {
          const id = intern(term);
          if (id >= dfAll.length) {
            const grown = new Int32Array(dfAll.length * 2);
            grown.set(dfAll);
            dfAll = grown;
          }
          dfAll[id]!++;
          tIds[i] = id;
          tf[i++] = c[0] + c[1] + c[2] + c[3];
        }
        topicTerms.push({ ids: tIds, tf });
      }
    }
    const n = topicTerms.length;
    const df = new Map<string, number>();
    let bytes = 0;
    names.forEach((t, id) => {
      if (dfAll[id]! >= 2) {
        df.set(t, dfAll[id]!);
        bytes += t.length * 2 + 80;
      }
    });
    // Each topic's most characteristic terms (tf × idf among terms in 3..n/10 topics), and the
    // topics of each such term: co-occurrence is counted over these, on demand.
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
    bytes += top.reduce((s, a) => s + a.byteLength + 16, 0);
    for (const p of postings.values()) bytes += p.length * 8 + 80;
    const cache = new Map<string, [string, number][]>();
    const related = (term: string): [string, number][] => {
      const hit = cache.get(term);
      if (hit) return hit;
      const id = ids.get(term);
      const list = id === undefined ? undefined : postings.get(id);
      let out: [string, number][] = [];
      if (list && id !== undefined) {
        const co = new Map<number, number>();
        for (const topic of list) for (const other of top[topic]!) if (other !== id) co.set(other, (co.get(other) ?? 0) + 1);
        const a = postings.get(id)!.length;
        const scored: [string, number][] = [];
        for (const [other, k] of co) {
          if (k < 2) continue;
          const b = postings.get(other)!.length;
          // Only terms seen together more often than chance.
          if (k * n <= a * b) continue;
          const g = g2(k, a, b, n);
          if (g >= MIN_G2) scored.push([names[other]!, g]);
        }
        scored.sort((x, y) => y[1] - x[1]);
        const best = scored[0]?.[1] ?? 1;
        out = scored.slice(0, RELATED).map(([t, g]) => [t, g / best]);
      }
      if (cache.size > 50_000) cache.clear();
      cache.set(term, out);
      return out;
    };
    return { communityId, posts, topics: n, df, related, builtAt: Date.now(), bytes };
  }
}

/** Dunning's log-likelihood ratio for k co-occurrences of terms in a and b of n topics. */
export function g2(k: number, a: number, b: number, n: number): number {
  const cells = [k, a - k, b - k, n - a - b + k];
  const h = (xs: number[]) => {
    const total = xs.reduce((s, x) => s + x, 0);
    return xs.reduce((s, x) => s + (x > 0 ? x * Math.log(x / total) : 0), 0);
  };
  return 2 * (h(cells) - h([cells[0]! + cells[1]!, cells[2]! + cells[3]!]) - h([cells[0]! + cells[2]!, cells[1]! + cells[3]!]));
}
