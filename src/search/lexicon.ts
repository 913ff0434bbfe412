// What search knows of each community's own words (./learn.ts: document frequencies and, when in
// use, term associations), per community: a community's words are only ever used to rank searches
// of that community, so private words never reach another one's results.
//
// Stored in search_lexicon (migration 0022), one row per community, so every instance shares one
// copy and a restart reads it instead of learning again. Learned by a background pass over the
// community's stored thread profiles, never on the request path: a search uses what is known so
// far (nothing, until the first pass ends or the stored row is read) and, at most every
// CHECK_EVERY_MS, checks the stored row: it is read when newer than the one in memory, and a new
// pass is started (by whichever instance notices first; a concurrent second pass only writes the
// same row again) when the community has grown by REBUILD_GROWTH since it was learned.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { decodeKnowledge, encodeKnowledge, learn, type Knowledge } from './learn.ts';
import type { Profiles } from './profiles.ts';
import type { Frequencies } from './index.ts';

/** A new pass when the post count grew by this fraction (or 20 posts) since the last one. */
const REBUILD_GROWTH = 0.1;
/** How often a search may check a community's stored lexicon and size (ms). */
const CHECK_EVERY_MS = 30_000;

/** What a community's pass learned (./learn.ts), with its associations looked up per term. */
export type Learned = Pick<Knowledge, 'posts' | 'topics' | 'df'> & {
  communityId: string;
  /** Related terms with weights in (0, 1] (1 = the strongest association of that term). */
  related(term: string): [string, number][];
};

/**
 * The searched communities' document frequencies taken together, once every one of them is
 * learned (else undefined: the engine counts). A term the lexicons do not hold (they keep terms of
 * two topics or more) counts as one topic.
 */
export function frequenciesOf(
  learned: Map<string, Learned>,
  communityIds: string[],
): Frequencies | undefined {
  const models = communityIds.map((id) => learned.get(id));
  if (models.length === 0 || models.some((m) => m === undefined || m.topics === 0))
    return undefined;
  const known = models as Learned[];
  return {
    topics: known.reduce((n, m) => n + m.topics, 0),
    df: (term) =>
      Math.max(
        1,
        known.reduce((n, m) => n + (m.df.get(term) ?? 0), 0),
      ),
  };
}

type Model = Learned & { builtAt: number; bytes: number; associations: boolean };

export type LexiconOptions = {
  /** Learn term associations too (they are only used by RerankOptions.associations). */
  associations?: boolean;
  /** Bounds of what is kept in memory (defaults MAX_BYTES, MAX_MODELS). */
  maxBytes?: number;
  maxModels?: number;
};

/**
 * What one instance keeps in memory: the lexicons of the communities searched most recently, up to
 * MAX_BYTES (estimated) and MAX_MODELS of them; a community dropped is read again from its stored
 * row when next searched. When each was last checked is kept for MAX_CHECKS communities.
 */
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_MODELS = 2_000;
const MAX_CHECKS = 10_000;

export class Lexicon {
  /** Least recently used first. */
  private readonly models = new Map<string, Model>();
  private bytes = 0;
  private readonly building = new Map<string, Promise<void>>();
  private readonly checkedAt = new Map<string, number>();
  private readonly associations: boolean;
  private readonly maxBytes: number;
  private readonly maxModels: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly profiles: Profiles,
    options: LexiconOptions = {},
  ) {
    this.associations = options.associations ?? false;
    this.maxBytes = options.maxBytes ?? MAX_BYTES;
    this.maxModels = options.maxModels ?? MAX_MODELS;
  }

  /** What is known of these communities so far; starts a check where one is due. Never waits. */
  learned(communityIds: string[]): Map<string, Learned> {
    const out = new Map<string, Learned>();
    for (const id of communityIds) {
      const m = this.models.get(id);
      if (m) {
        out.set(id, m);
        this.models.delete(id);
        this.models.set(id, m);
      }
      const now = Date.now();
      if (!this.building.has(id) && now - (this.checkedAt.get(id) ?? 0) >= CHECK_EVERY_MS) {
        this.checkedAt.delete(id);
        this.checkedAt.set(id, now);
        while (this.checkedAt.size > MAX_CHECKS)
          this.checkedAt.delete(this.checkedAt.keys().next().value!);
        this.refresh(id).catch(() => {});
      }
    }
    return out;
  }

  /** Keeps a community's model (most recently used), dropping the least recently used past the bounds. */
  private keep(communityId: string, model: Model): void {
    const old = this.models.get(communityId);
    if (old) {
      this.bytes -= old.bytes;
      this.models.delete(communityId);
    }
    this.models.set(communityId, model);
    this.bytes += model.bytes;
    for (const [id, m] of this.models) {
      if ((this.bytes <= this.maxBytes && this.models.size <= this.maxModels) || id === communityId)
        break;
      this.models.delete(id);
      this.bytes -= m.bytes;
    }
  }

  /** Waits until these communities' lexicons are current (read from storage, or learned and stored). */
  async ready(communityIds: string[]): Promise<void> {
    await Promise.all(communityIds.map((id) => this.refresh(id)));
  }

  /** Memory held by the lexicons in this instance (estimate: strings as UTF-16, map entries ~80 bytes). */
  stats(): { communities: number; terms: number; bytes: number } {
    let terms = 0;
    for (const m of this.models.values()) terms += m.df.size;
    return { communities: this.models.size, terms, bytes: this.bytes };
  }

  private async refresh(communityId: string): Promise<void> {
    const pending = this.building.get(communityId);
    if (pending) return pending;
    const p = (async () => {
      // The stored row's size and age first: its text is read only when this instance needs it.
      const stored = await sql<{ posts: number; built_at: number | string; has: number | boolean }>`
        select posts, built_at, related <> '' as has from search_lexicon where community_id = ${communityId}`.execute(
        this.db,
      );
      const row = stored.rows[0];
      const r = await sql<{
        n: number | string;
      }>`select count(*) as n from posts where community_id = ${communityId}`.execute(this.db);
      const posts = Number(r.rows[0]?.n ?? 0);
      const fresh =
        row &&
        posts - Number(row.posts) < Math.max(20, Number(row.posts) * REBUILD_GROWTH) &&
        (Boolean(row.has) || !this.associations);
      if (row && fresh) {
        const memory = this.models.get(communityId);
        if (memory && memory.builtAt >= Number(row.built_at)) return;
        const full = await sql<{
          posts: number;
          topics: number;
          built_at: number | string;
          df: string;
          related: string;
        }>`
          select posts, topics, built_at, df, related from search_lexicon where community_id = ${communityId}`.execute(
          this.db,
        );
        const f = full.rows[0];
        if (f)
          this.keep(communityId, this.model(communityId, decodeKnowledge(f), Number(f.built_at)));
        return;
      }
      // The profiles first made current: what is learned reflects every post written so far.
      await this.profiles.ready();
      const knowledge = await learn(this.db, communityId, posts, this.associations);
      const builtAt = Date.now();
      const { df, related } = encodeKnowledge(knowledge);
      const values = {
        community_id: communityId,
        posts,
        topics: knowledge.topics,
        built_at: builtAt,
        df,
        related,
      };
      await this.db
        .insertInto('search_lexicon')
        .values(values)
        .onConflict((oc) =>
          oc
            .column('community_id')
            .doUpdateSet({ posts, topics: knowledge.topics, built_at: builtAt, df, related }),
        )
        .execute();
      this.keep(communityId, this.model(communityId, knowledge, builtAt));
    })();
    this.building.set(communityId, p);
    return p.finally(() => this.building.delete(communityId));
  }

  private model(communityId: string, k: Knowledge, builtAt: number): Model {
    let bytes = 0;
    for (const t of k.df.keys()) bytes += t.length * 2 + 80;
    for (const [t, list] of k.related)
      bytes += t.length * 2 + 80 + list.reduce((s, [o]) => s + o.length * 2 + 40, 0);
    const none: [string, number][] = [];
    return {
      communityId,
      posts: k.posts,
      topics: k.topics,
      df: k.df,
      builtAt,
      bytes,
      associations: k.related.size > 0,
      related: (term) => k.related.get(term) ?? none,
    };
  }
}
