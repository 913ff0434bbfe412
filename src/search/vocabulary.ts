// In-process caches for the parts of search that only tune or suggest, never decide what matches:
//
//   Vocabulary  index terms → document frequency, one slice per first character, loaded lazily
//               (one range scan per slice, what a typo correction used to pay on every call).
//               Typo correction then tests the typed word's one-edit neighbours against it, each an
//               O(1) lookup, instead of scanning the index vocabulary.
//   TtlCache    a small LRU with a time to live (PostgreSQL document frequencies for the idf).
//
// Freshness. Both are stamped with the engine's change generation when filled (SQLite:
// total_changes() of the connection + PRAGMA data_version for other connections; PostgreSQL: a
// sequence bumped by every statement writing search_documents, migration 0011). A slice that is
// stale (the generation moved since it was read) is still used, because a suggestion from a
// vocabulary a few seconds old is as good a suggestion, with two exceptions that keep answers
// exact where it matters: a stale slice that suggests nothing for a word is re-read at once (a
// word written since may be the one the typo stands for), and a stale slice older than
// `refreshMs` is re-read in the background. Frequencies of a stale slice only order suggestions.
import { isCorrection } from './query.ts';

export type Generation = string;

type Slice = {
  terms: Map<string, number>;
  alphabet: Set<string>;
  generation: Generation;
  loadedAt: number;
  chars: number;
};

export type VocabularyOptions = {
  /** Re-read a stale slice in the background when it is older than this (default 30 s). */
  refreshMs?: number;
  /** Most terms kept over all slices; the least recently used slices are dropped past it. */
  maxTerms?: number;
};

/** UTF-8 byte order (SQLite's BINARY collation, the order fts5vocab returns terms in). */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export class Vocabulary {
  private readonly slices = new Map<string, Slice>();
  private readonly loading = new Map<string, Promise<Slice>>();
  private readonly refreshMs: number;
  private readonly maxTerms: number;
  private termCount = 0;

  constructor(
    /** Every index term starting with `lead`, with the number of documents holding it. */
    private readonly load: (lead: string) => Promise<{ term: string; doc: number }[]>,
    /** The engine's change generation now (cheap: no scan). */
    private readonly generation: () => Promise<Generation>,
    options: VocabularyOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 30_000;
    this.maxTerms = options.maxTerms ?? 200_000;
  }

  /**
   * Index terms within one edit of `word` (isCorrection), starting with its first or second
   * character, most frequent first, at most `max`: the same answer as the vocabulary scan it
   * replaces (ties in index order), from the cached slices. `keep` narrows and reorders the
   * candidates (the vocabulary spans every community; the caller keeps those of the communities
   * searched, ordered by their frequency there); "nothing found" means nothing kept.
   */
  async corrections(
    word: string,
    max = 3,
    keep: (terms: string[]) => Promise<string[]> = async (t) => t,
  ): Promise<string[]> {
    if (word.length < 4) return [];
    const leads = [...new Set([word[0]!, word[1]!])];
    const now = await this.generation();
    let slices = await Promise.all(leads.map((l) => this.slice(l)));
    let found = await keep(this.find(word, slices).map(([t]) => t));
    const stale = slices.filter((s) => s.generation !== now);
    if (stale.length && found.length === 0) {
      // Nothing from a stale vocabulary: read it again now (the word may have been written since).
      slices = await Promise.all(
        leads.map(async (l, i) => (slices[i]!.generation === now ? slices[i]! : this.reload(l))),
      );
      found = await keep(this.find(word, slices).map(([t]) => t));
    } else if (stale.length) {
      const at = Date.now();
      for (const [i, l] of leads.entries()) {
        const s = slices[i]!;
        if (s.generation !== now && at - s.loadedAt >= this.refreshMs)
          this.reload(l).catch(() => {});
      }
    }
    return found.slice(0, max);
  }

  /** Loads the slices of these first characters (a service starting: corrections then never wait for a scan). */
  async warm(leads: string[]): Promise<void> {
    for (const l of leads)
      if (!this.slices.has(l) && this.termCount < this.maxTerms) await this.reload(l);
  }

  /** Cached terms and an estimate of their memory (strings as UTF-16, map entries ~80 bytes). */
  stats(): { slices: number; terms: number; bytes: number } {
    let bytes = 0;
    for (const s of this.slices.values())
      bytes += s.chars * 2 + s.terms.size * 80 + s.alphabet.size * 40;
    return { slices: this.slices.size, terms: this.termCount, bytes };
  }

  clear(): void {
    this.slices.clear();
    this.termCount = 0;
  }

  private find(word: string, slices: Slice[]): [string, number][] {
    const out: [string, number][] = [];
    for (const s of slices) {
      const hits: [string, number][] = [];
      for (const c of candidates(word, s)) {
        const doc = s.terms.get(c);
        if (doc !== undefined && isCorrection(word, c)) hits.push([c, doc]);
      }
      out.push(...hits.sort((a, b) => byteOrder(a[0], b[0])));
    }
    return out.sort((a, b) => b[1] - a[1]);
  }

  private async slice(lead: string): Promise<Slice> {
    const s = this.slices.get(lead);
    if (s) {
      // Most recently used last (the LRU order of eviction).
      this.slices.delete(lead);
      this.slices.set(lead, s);
      return s;
    }
    return this.reload(lead);
  }

  private async reload(lead: string): Promise<Slice> {
    const pending = this.loading.get(lead);
    if (pending) return pending;
    const p = (async () => {
      // The generation is read before the terms: a write between the two leaves the slice marked
      // stale (read again later), never fresh with a missing term.
      const generation = await this.generation();
      const rows = await this.load(lead);
      const terms = new Map<string, number>();
      const alphabet = new Set<string>();
      let chars = 0;
      for (const r of rows) {
        terms.set(r.term, Number(r.doc));
        chars += r.term.length;
        for (let i = 0; i < r.term.length; i++) alphabet.add(r.term[i]!);
      }
      const slice: Slice = { terms, alphabet, generation, loadedAt: Date.now(), chars };
      const old = this.slices.get(lead);
      if (old) {
        this.termCount -= old.terms.size;
        this.slices.delete(lead);
      }
      this.slices.set(lead, slice);
      this.termCount += terms.size;
      for (const [l, s] of this.slices) {
        if (this.termCount <= this.maxTerms || l === lead) break;
        this.slices.delete(l);
        this.termCount -= s.terms.size;
      }
      return slice;
    })();
    this.loading.set(lead, p);
    return p.finally(() => this.loading.delete(lead));
  }
}

/**
 * Every string that can pass isCorrection(word, ·) with a term of this slice: the word's
 * deletions, adjacent transpositions, replacements and insertions (over the slice's alphabet: a
 * term holds no other character), and, for an index stem shorter than the word by 1-3 characters,
 * the word's prefix of that length and its replacements and transpositions. Characters are UTF-16
 * code units, as editDistance compares them. A slice whose alphabet would make that list longer
 * than its term list is simply listed.
 */
function candidates(word: string, s: Slice): Iterable<string> {
  const n = word.length;
  const alphabet = [...s.alphabet];
  if ((2 * n + 1) * alphabet.length > s.terms.size) return s.terms.keys();
  const out = new Set<string>();
  const sameLength = (w: string) => {
    out.add(w);
    for (let i = 0; i + 1 < w.length; i++)
      out.add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
    for (let i = 0; i < w.length; i++)
      for (const a of alphabet) out.add(w.slice(0, i) + a + w.slice(i + 1));
  };
  sameLength(word);
  for (let i = 0; i < n; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  for (let i = 0; i <= n; i++)
    for (const a of alphabet) out.add(word.slice(0, i) + a + word.slice(i));
  for (let len = Math.max(4, n - 3); len <= n - 1; len++) sameLength(word.slice(0, len));
  return out;
}

/** A bounded LRU map whose entries expire after `ttlMs` or when their generation is not current. */
export class TtlCache<V> {
  private readonly map = new Map<string, { value: V; at: number; generation: Generation }>();
  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string, generation: Generation): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.generation !== generation || Date.now() - e.at > this.ttlMs) {
      this.map.delete(key);
      return undefined;
    }
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  set(key: string, value: V, generation: Generation): void {
    this.map.delete(key);
    this.map.set(key, { value, at: Date.now(), generation });
    while (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value!);
  }

  get size(): number {
    return this.map.size;
  }

  /** The cached values, fresh or not (for size reports). */
  values(): V[] {
    return [...this.map.values()].map((e) => e.value);
  }
}
