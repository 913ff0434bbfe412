// Thread profiles: each topic's content terms (./terms.ts) counted per field (title, question =
// first post and the wording of the topics closed as its duplicates, "asked as"; accepted answer,
// replies; deleted posts left out), tokenized once at index time and stored in
// search_profiles (migration 0021), so the re-ranked head (./rerank.ts) and the learned lexicon
// (./lexicon.ts) read one compact row per topic instead of the thread's posts.
//
// Freshness: the triggers of 0021 queue a topic whenever what its profile holds changes. A read
// never uses the stored profile of a queued topic: it builds that one from the posts (the same
// code) and starts the profiler, which drains the queue in the background, removing an entry only
// at the generation it read and storing a profile only for an entry it removed (storeClaimed: a
// write racing with it stays queued, and a slower instance never stores an older text).
//
// Encoding (`terms`): " term=t1q2a1r3 …", one entry per term, the letter of each field holding it
// followed by its count there, fields in the order t q a r. Terms are letters and digits only,
// so " term=" finds a term without parsing the rest.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { contentTerms, termCounts } from './terms.ts';

export const FIELDS = ['title', 'question', 'answer', 'replies'] as const;
export type Field = (typeof FIELDS)[number];
const CODE: Record<Field, string> = { title: 't', question: 'q', answer: 'a', replies: 'r' };
const FIELD_OF: Record<string, number> = { t: 0, q: 1, a: 2, r: 3 };

/** Replies profiled per topic (the first ones; the accepted answer is always its own field), text read per post. */
const MAX_REPLIES = 20;
const MAX_BODY = 20_000;
/** Topics profiled per batch of the background pass. */
const BATCH = 100;

export type Profile = {
  topicId: string;
  communityId: string;
  /** The encoded term counts (see above). */
  terms: string;
  /** Content terms per field, in FIELDS order. */
  lengths: [number, number, number, number];
};

/** The counts of one term per field (FIELDS order), or undefined when the topic does not hold it. */
export function countsOf(p: Profile, term: string): [number, number, number, number] | undefined {
  const key = ` ${term}=`;
  const at = p.terms.indexOf(key);
  if (at < 0) return undefined;
  const out: [number, number, number, number] = [0, 0, 0, 0];
  let i = at + key.length;
  while (i < p.terms.length && p.terms.charCodeAt(i) !== 32) {
    const field = FIELD_OF[p.terms[i]!]!;
    let n = 0;
    for (i++; i < p.terms.length; i++) {
      const c = p.terms.charCodeAt(i);
      if (c < 48 || c > 57) break;
      n = n * 10 + (c - 48);
    }
    out[field] = n;
  }
  return out;
}

/** Every term of a profile with its counts per field. */
export function decodeProfile(p: Profile): Map<string, [number, number, number, number]> {
  const out = new Map<string, [number, number, number, number]>();
  for (const entry of p.terms.split(' ')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    const counts: [number, number, number, number] = [0, 0, 0, 0];
    for (const m of entry.slice(eq + 1).matchAll(/([tqar])(\d+)/g))
      counts[FIELD_OF[m[1]!]!] = Number(m[2]);
    out.set(entry.slice(0, eq), counts);
  }
  return out;
}

/** A profile from the thread's texts. */
export function profileOf(
  topicId: string,
  communityId: string,
  texts: Record<Field, string[]>,
): Profile {
  const fields = FIELDS.map((f) => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const text of texts[f]) {
      const terms = contentTerms(text.slice(0, MAX_BODY));
      termCounts(terms, counts);
      length += terms.length;
    }
    return { counts, length };
  });
  const all = new Map<string, string>();
  FIELDS.forEach((f, i) => {
    for (const [term, n] of fields[i]!.counts)
      all.set(term, `${all.get(term) ?? ''}${CODE[f]}${n}`);
  });
  let terms = '';
  for (const [term, counts] of all) terms += ` ${term}=${counts}`;
  return {
    topicId,
    communityId,
    terms,
    lengths: fields.map((f) => f.length) as Profile['lengths'],
  };
}

/** Builds the profiles of these topics from their posts (topics that no longer exist are left out). */
export async function buildProfiles(
  db: Kysely<Database>,
  topicIds: string[],
): Promise<Map<string, Profile>> {
  const out = new Map<string, Profile>();
  if (topicIds.length === 0) return out;
  const topics = await sql<{
    id: string;
    community_id: string;
    title: string;
    solution_post_id: string | null;
  }>`
    select id, community_id, title, solution_post_id from topics where id in (${sql.join(topicIds)})`.execute(
    db,
  );
  if (topics.rows.length === 0) return out;
  const posts = await sql<{
    topic_id: string;
    id: string;
    position: number | bigint;
    body: string;
  }>`
    select p.topic_id, p.id, p.position, p.body from posts p join topics t on t.id = p.topic_id
    where p.topic_id in (${sql.join(topics.rows.map((t) => t.id))}) and (p.position <= ${MAX_REPLIES + 1} or p.id = t.solution_post_id)
      and p.deleted_at is null`.execute(db);
  // "Asked as": the title and question of each live topic closed as a duplicate of one of these.
  const askedAs = await sql<{ original: string; title: string; body: string }>`
    select d.duplicate_of as original, d.title, p.body from topics d join posts p on p.topic_id = d.id and p.position = 1
    where d.duplicate_of in (${sql.join(topics.rows.map((t) => t.id))}) and d.deleted_at is null`.execute(
    db,
  );
  const texts = new Map(
    topics.rows.map((t) => [
      t.id,
      { title: [t.title], question: [], answer: [], replies: [] } as Record<Field, string[]>,
    ]),
  );
  const solution = new Map(topics.rows.map((t) => [t.id, t.solution_post_id]));
  for (const p of posts.rows) {
    const field: Field =
      Number(p.position) === 1
        ? 'question'
        : p.id === solution.get(p.topic_id)
          ? 'answer'
          : 'replies';
    texts.get(p.topic_id)?.[field].push(p.body);
  }
  for (const a of askedAs.rows) texts.get(a.original)?.question.push(a.title, a.body);
  for (const t of topics.rows) out.set(t.id, profileOf(t.id, t.community_id, texts.get(t.id)!));
  return out;
}

/**
 * Stores the profiles built for these queue entries, each only if its entry is still queued at the
 * generation read (claimed by removing exactly that entry; generations never repeat, migration
 * 0072): an entry a newer write bumped, or another instance already stored, is left alone, so an
 * older text never overwrites a newer one. A claimed topic that no longer exists loses its
 * profile. Returns how many profiles were written.
 */
export async function storeClaimed(
  db: Kysely<Database>,
  queued: { topic_id: string; gen: number | string }[],
  profiles: Map<string, Profile>,
): Promise<number> {
  if (queued.length === 0) return 0;
  return db.transaction().execute(async (tx) => {
    const claimed = await tx
      .deleteFrom('search_profile_queue')
      .where((eb) =>
        eb.or(
          queued.map((q) =>
            eb.and([eb('topic_id', '=', q.topic_id), eb('gen', '=', Number(q.gen))]),
          ),
        ),
      )
      .returning('topic_id')
      .execute();
    const mine = claimed.map((c) => c.topic_id);
    const fresh = mine.flatMap((id) => profiles.get(id) ?? []);
    if (fresh.length) {
      await tx
        .insertInto('search_profiles')
        .values(
          fresh.map((p) => ({
            topic_id: p.topicId,
            community_id: p.communityId,
            terms: p.terms,
            title_len: p.lengths[0],
            question_len: p.lengths[1],
            answer_len: p.lengths[2],
            replies_len: p.lengths[3],
          })),
        )
        .onConflict((oc) =>
          oc.column('topic_id').doUpdateSet((eb) => ({
            community_id: eb.ref('excluded.community_id'),
            terms: eb.ref('excluded.terms'),
            title_len: eb.ref('excluded.title_len'),
            question_len: eb.ref('excluded.question_len'),
            answer_len: eb.ref('excluded.answer_len'),
            replies_len: eb.ref('excluded.replies_len'),
          })),
        )
        .execute();
    }
    const gone = mine.filter((id) => !profiles.has(id));
    if (gone.length) await tx.deleteFrom('search_profiles').where('topic_id', 'in', gone).execute();
    return fresh.length;
  });
}

/** Reads current profiles, builds the rest, and keeps search_profiles filled in the background. */
export class Profiles {
  private draining: Promise<void> | undefined;
  private built = 0;

  constructor(private readonly db: Kysely<Database>) {}

  /** The current profile of each of these topics: stored when up to date, else built from the posts. */
  async read(topicIds: string[]): Promise<Map<string, Profile>> {
    if (topicIds.length === 0) return new Map();
    const r = await sql<{
      topic_id: string;
      community_id: string;
      terms: string;
      title_len: number;
      question_len: number;
      answer_len: number;
      replies_len: number;
      queued: number | null;
    }>`
      select p.topic_id, p.community_id, p.terms, p.title_len, p.question_len, p.answer_len, p.replies_len,
        (select q.gen from search_profile_queue q where q.topic_id = p.topic_id) as queued
      from search_profiles p where p.topic_id in (${sql.join(topicIds)})`.execute(this.db);
    const out = new Map<string, Profile>();
    for (const x of r.rows) {
      if (x.queued !== null) continue;
      out.set(x.topic_id, {
        topicId: x.topic_id,
        communityId: x.community_id,
        terms: x.terms,
        lengths: [
          Number(x.title_len),
          Number(x.question_len),
          Number(x.answer_len),
          Number(x.replies_len),
        ],
      });
    }
    const stale = topicIds.filter((id) => !out.has(id));
    if (stale.length) {
      for (const [id, p] of await buildProfiles(this.db, stale)) out.set(id, p);
      void this.drain();
    }
    return out;
  }

  /** Starts emptying the queue in the background (at most one pass at a time per instance). */
  async drain(): Promise<void> {
    this.draining ??= this.pass().finally(() => (this.draining = undefined));
    return this.draining.catch(() => {});
  }

  /** Waits until every queued topic has a stored, current profile (benchmarks, tests, the lexicon). */
  async ready(): Promise<void> {
    for (;;) {
      await this.drain();
      const r = await sql<{
        n: number;
      }>`select count(*) as n from (select 1 from search_profile_queue limit 1) q`.execute(this.db);
      if (Number(r.rows[0]?.n ?? 0) === 0) return;
    }
  }

  /** Profiles written by this instance since it started. */
  stats(): { built: number } {
    return { built: this.built };
  }

  private async pass(): Promise<void> {
    for (;;) {
      const queued = await sql<{
        topic_id: string;
        gen: number;
      }>`select topic_id, gen from search_profile_queue limit ${BATCH}`.execute(this.db);
      if (queued.rows.length === 0) return;
      const ids = queued.rows.map((q) => q.topic_id);
      const profiles = await buildProfiles(this.db, ids);
      this.built += await storeClaimed(this.db, queued.rows, profiles);
    }
  }
}
