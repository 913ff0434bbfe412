// SearchService: what MCP (search_community, suggest_answer, search_network) and REST call.
// The caller has already authorized the communities it passes: one for a community search, the
// public ones for the network. Validation errors are DomainError('invalid_argument') naming the
// field and the fix.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import { DomainError } from '../domain/errors.ts';
import { LIMITS, searchFilters } from '../domain/fields.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor, type CursorShape } from '../domain/cursor.ts';
import { topicUrl } from '../domain/urls.ts';
import {
  pageDetails,
  type Frequencies,
  type IndexFilters,
  type IndexHit,
  type PoolHit,
  type SearchIndex,
} from './index.ts';
import { parseQuery, queryWords, STOP_WORDS, words, type ParsedQuery } from './query.ts';
import { coverage, makeSnippet, plainText } from './snippet.ts';
import { cosine, reciprocalRankFusion, type Embedder } from './embedder.ts';
import { frequenciesOf, Lexicon, type Learned } from './lexicon.ts';
import { HEAD, inHeadOrder, rerankHead, type RerankOptions } from './rerank.ts';
import { Profiles } from './profiles.ts';
import { nearStop } from './learned-idf.ts';
import type {
  SearchFilters,
  SearchMode,
  SearchResponse,
  SearchResult,
  SuggestResponse,
} from './types.ts';

export type UrlConfig = Pick<Config, 'publicScheme' | 'baseDomain' | 'port'>;

export type SearchOptions = {
  /** Local embedding model for 'semantic' and 'hybrid'; absent → those modes are refused. */
  embedder?: Embedder;
  /** Stored post vectors of that embedder (./embeddings.ts); absent → candidates are embedded per query. */
  vectors?: { get(postIds: string[]): Promise<Map<string, Float32Array>> };
  /** score = raw / (raw + k): the raw relevance that maps to 0.5. Defaults per engine. */
  scoreHalfPoint?: number;
  /** Candidate topics re-ranked by the semantic and hybrid modes. */
  semanticPool?: number;
  /** Expand query words that match nothing with index terms one edit away (default true). */
  typoTolerance?: boolean;
  /** Which parts of the thread re-ranking of a lexical head run (./rerank.ts; all by default). */
  ranking?: RerankOptions;
};

/** Posts of the engine's ranking whose topics are the candidates of the re-ranked head. */
const HEAD_POOL = 200;

/** What the engine is asked for a search: its communities, parsed query, filters and learned word frequencies. */
type EngineRequest = {
  communityIds: string[];
  query: ParsedQuery;
  filters: IndexFilters;
  frequencies?: Frequencies;
};

/** A cursor inside the re-ranked head: key "h:<offset>". */
const HEAD_CURSOR = /^h:(\d{1,4})$/;
const HEAD_CURSOR_SHAPE: CursorShape = { key: 'text', id: { constant: 'h' } };

/** Raw relevance that maps to score 0.5, calibrated on the ham corpus questions (bench/search-quality). */
const HALF_POINT = { sqlite: 12, postgres: 1.2 } as const;

function parseFilters(filters: SearchFilters): z.infer<typeof searchFilters> {
  const r = searchFilters.safeParse(filters ?? {});
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = issue.path.join('.') || 'filters';
    const message = issue.message.startsWith(field)
      ? issue.message
      : `filters.${field}: ${issue.message}`;
    throw new DomainError('invalid_argument', message);
  }
  if (r.data.since && r.data.until && r.data.since >= r.data.until) {
    throw new DomainError('invalid_argument', 'filters.since must be earlier than filters.until.');
  }
  return r.data;
}

export class SearchService {
  private readonly halfPoint: number;
  /** Per-community document frequencies and term associations, learned in the background. */
  readonly lexicon: Lexicon;
  /** Each topic's words per field, stored at index time (the re-ranked head reads them). */
  readonly profiles: Profiles;
  private warming: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    readonly index: SearchIndex,
    private readonly urls: UrlConfig,
    private readonly options: SearchOptions = {},
  ) {
    this.halfPoint = options.scoreHalfPoint ?? HALF_POINT[index.engine];
    this.profiles = new Profiles(index.db);
    this.lexicon = new Lexicon(index.db, this.profiles, {
      associations: options.ranking?.associations === true,
    });
  }

  /**
   * Waits for what this instance learns and caches in the background (thread profiles stored,
   * these communities' lexicon, the index's caches): what a server has done shortly after it
   * starts, for benchmarks and tests. Searching never waits for it.
   */
  async ready(communityIds: string[]): Promise<void> {
    await Promise.all([this.profiles.ready(), this.lexicon.ready(communityIds), this.warm()]);
  }

  private async warm(): Promise<void> {
    this.warming ??= (this.index.warm?.() ?? Promise.resolve()).catch(() => {});
    return this.warming;
  }

  get modes(): SearchMode[] {
    return this.options.embedder ? ['lexical', 'semantic', 'hybrid'] : ['lexical'];
  }

  async search(
    communities: Community[],
    query: string,
    filters: SearchFilters = {},
    mode: SearchMode = 'lexical',
  ): Promise<SearchResponse> {
    if (typeof query === 'string' && query.trim().length > LIMITS.searchQuery.max) {
      throw new DomainError(
        'invalid_argument',
        `query: must be at most ${LIMITS.searchQuery.max} characters.`,
      );
    }
    return (await this.find(communities, query, filters, mode)).response;
  }

  /**
   * search() without the query's length limit (a question, suggest_answer, has its own), with the
   * query as it was searched (typo neighbours added).
   */
  private async find(
    communities: Community[],
    query: string,
    filters: SearchFilters,
    mode: SearchMode,
  ): Promise<{ response: SearchResponse; parsed: ParsedQuery }> {
    if (typeof query !== 'string')
      throw new DomainError('invalid_argument', 'query must be a string of words or a question.');
    if (mode !== 'lexical' && mode !== 'semantic' && mode !== 'hybrid') {
      throw new DomainError('invalid_argument', 'mode must be "lexical", "semantic" or "hybrid".');
    }
    if (mode !== 'lexical' && !this.options.embedder) {
      throw new DomainError(
        'invalid_argument',
        `mode "${mode}" needs a local embedding model and none is configured on this server. Use mode "lexical".`,
      );
    }
    const f = parseFilters(filters);
    void this.warm();
    const ids = [...new Set(communities.map((c) => c.id))];
    // What the communities' text taught, read once per search: typo expansion, the engine's idf and
    // the re-ranked head all see the same lexicons.
    const learned = this.lexicon.learned(ids);
    const frequencies = frequenciesOf(learned, ids);
    const parsed = await this.expandTypos(parseQuery(query), ids, frequencies);
    const limit = f.limit ?? 10;
    const indexFilters: IndexFilters = {
      categorySlug: f.category,
      tags: f.tags,
      solvedOnly: f.solved_only,
      sourceTypes: f.source_types,
      author: f.author,
      since: f.since,
      until: f.until,
    };
    const listing = this.listing(mode, query, f, ids);
    const after = decodeCursor(
      listing,
      f.cursor,
      CURSOR_SHAPES.byScore,
      CURSOR_SHAPES.byOffset,
      HEAD_CURSOR_SHAPE,
    );
    const headOffset =
      after && typeof after.key === 'string' ? HEAD_CURSOR.exec(after.key)?.[1] : undefined;
    if (
      after &&
      mode === 'lexical' &&
      headOffset === undefined &&
      (typeof after.key !== 'number' || !after.id)
    )
      throw this.badCursor();
    if (
      headOffset !== undefined &&
      (mode !== 'lexical' || this.options.ranking?.threadFields === false)
    )
      throw this.badCursor();

    if (mode === 'lexical') {
      const request = { communityIds: ids, query: parsed, filters: indexFilters, frequencies };
      const respond = (
        page: IndexHit[],
        total: number,
        next?: { key: number | string; id: string },
      ) => ({
        parsed,
        response: {
          query,
          mode,
          total,
          results: page.map((h) => this.result(h, communities, parsed, this.normalize(h.raw))),
          ...(next ? { next_cursor: encodeCursor(listing, next) } : {}),
        },
      });
      if (this.options.ranking?.threadFields !== false)
        return respond(...(await this.rerankedPage(request, learned, limit, headOffset, after)));
      const { hits, total } = await this.index.search({
        ...request,
        limit: limit + 1,
        after: after ? { raw: Number(after.key), id: after.id } : undefined,
      });
      const page = hits.slice(0, limit);
      const last = page[page.length - 1];
      return respond(
        page,
        total,
        hits.length > limit && last ? { key: last.raw, id: last.postId } : undefined,
      );
    }

    // semantic / hybrid: re-rank a lexical candidate pool; offset cursor over the fused order.
    const offset = after ? Number(after.key) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw this.badCursor();
    const { hits: pool, ordered } = await this.semanticOrder(
      { communityIds: ids, query: parsed, filters: indexFilters, frequencies },
      learned,
      query,
      mode,
    );
    const page = ordered.slice(offset, offset + limit);
    const byId = new Map(pool.map((h) => [h.postId, h]));
    const results = page.map(({ id, score }) =>
      this.result(byId.get(id)!, communities, parsed, score),
    );
    const next =
      offset + limit < ordered.length
        ? { next_cursor: encodeCursor(listing, { key: offset + limit, id: 'o' }) }
        : {};
    return { parsed, response: { query, mode, total: ordered.length, results, ...next } };
  }

  async suggestAnswer(
    communities: Community[],
    question: string,
    limit = 3,
    options: { askWith?: string } = {},
  ): Promise<SuggestResponse> {
    if (typeof question !== 'string' || !question.trim()) {
      throw new DomainError(
        'invalid_argument',
        'question must not be empty: pass the question as you would ask it.',
      );
    }
    const length = question.trim().length;
    if (length < LIMITS.question.min || length > LIMITS.question.max) {
      throw new DomainError(
        'invalid_argument',
        `question: must be ${LIMITS.question.min}-${LIMITS.question.max} characters.`,
      );
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > 10) {
      throw new DomainError(
        'invalid_argument',
        'limit must be a whole number between 1 and 10 (default 3).',
      );
    }
    const askWith = options.askWith ?? 'create_topic';
    const mode: SearchMode = this.options.embedder ? 'hybrid' : 'lexical';
    const { response: found, parsed } = await this.find(communities, question, { limit: 20 }, mode);
    const qWords = queryWords(parsed);
    const weight = (w: string) => (STOP_WORDS.has(w) ? 0.2 : Math.min(3, 0.5 + w.length / 4));
    const slugToCommunity = new Map(communities.map((c) => [c.slug, c]));
    const single = communities.length === 1 ? communities[0] : undefined;

    type Answer = SearchResult & { accepted: boolean };
    const accepted: { answer: Answer; fit: number }[] = [];
    const others: { answer: Answer; fit: number }[] = [];
    for (const r of found.results) {
      const community = single ?? slugToCommunity.get(r.community ?? '');
      if (!community) continue;
      const topic = await this.store.community(community.id).topics.getById(r.topic_id);
      if (!topic) continue;
      const questionText = `${topic.title} ${r.source_type === 'post' ? '' : r.snippet}`;
      if (topic.solutionPostId) {
        const post = r.is_solution
          ? undefined
          : await this.store.community(community.id).posts.getById(topic.solutionPostId);
        const text = post ? plainText(post.body) : '';
        const answer: Answer = post
          ? {
              ...r,
              source_type: 'post',
              source_id: post.id,
              snippet: makeSnippet(text, qWords),
              url: topicUrl(this.urls, community.slug, topic.slug, post.id),
              author: authorName(post.author),
              is_solution: true,
              created_at: post.createdAt,
              accepted: true,
            }
          : { ...r, accepted: true };
        accepted.push({
          answer,
          fit: coverage(`${questionText} ${r.snippet} ${text}`, qWords, weight),
        });
      } else {
        others.push({
          answer: { ...r, accepted: false },
          fit: coverage(`${questionText} ${r.snippet}`, qWords, weight),
        });
      }
    }
    const chosen = (accepted.length ? accepted : others).slice(0, limit);
    const top = chosen[0];
    const confidence = top
      ? round4(
          Math.min(1, (0.55 * top.fit + 0.45 * top.answer.score) * (top.answer.accepted ? 1 : 0.6)),
        )
      : 0;
    const where = single ? `"${single.slug}"` : 'the searched communities';
    let message: string;
    if (!top) {
      message = `Nothing in ${where} matches this question. Ask it with ${askWith} so people and agents there can answer it.`;
    } else if (!top.answer.accepted) {
      message = `No accepted answer matches this question in ${where}; these are the closest posts, none marked as a solution. If they do not answer it, ask with ${askWith}.`;
    } else if (confidence < 0.35) {
      message = `These accepted answers match the question only loosely. If none of them fits, ask with ${askWith}.`;
    } else {
      message = `Found ${chosen.length} accepted answer${chosen.length === 1 ? '' : 's'} that match this question; the first is the closest.`;
    }
    return { question, confidence, answers: chosen.map((c) => c.answer), message };
  }

  // — internals —

  /**
   * A page of the re-ranked order: the head (the best HEAD topics among the engine's best
   * HEAD_POOL posts, re-ranked by their thread profiles), then every other matching topic in the
   * engine's order. Pages inside the head are offsets ("h:<n>"); past it, a keyset over the engine
   * order that skips the head's topics (the head is recomputed, not carried in the cursor), so
   * every topic appears once and the total is every matching topic.
   */
  private async rerankedPage(
    request: EngineRequest,
    learned: Map<string, Learned>,
    limit: number,
    headOffset: string | undefined,
    after: { key: number | string; id: string } | undefined,
  ): Promise<[IndexHit[], number, { key: number | string; id: string } | undefined]> {
    const { head, total } = await this.rerankedHead(request, learned);
    const offset = after && headOffset === undefined ? head.length : Number(headOffset ?? 0);
    const shown = await pageDetails(this.index.db, head.slice(offset, offset + limit));
    const need = limit - shown.length;
    if (need === 0) {
      return [
        shown,
        total,
        offset + limit < head.length || total > head.length
          ? { key: `h:${offset + limit}`, id: 'h' }
          : undefined,
      ];
    }
    if (total <= head.length) return [shown, total, undefined];
    const inHead = new Set(head.map((h) => h.topicId));
    const keyset =
      after && headOffset === undefined ? { raw: Number(after.key), id: after.id } : undefined;
    const tail = await this.index.search({
      ...request,
      limit: need + inHead.size + 1,
      after: keyset,
    });
    const rest = tail.hits.filter((h) => !inHead.has(h.topicId));
    const taken = rest.slice(0, need);
    const end = taken[taken.length - 1];
    return [
      [...shown, ...taken],
      total,
      rest.length > need && end ? { key: end.raw, id: end.postId } : undefined,
    ];
  }

  /** The head: the best HEAD topics among the engine's best HEAD_POOL posts, re-ranked by their thread profiles; and every matching topic's count. */
  private async rerankedHead(
    request: EngineRequest,
    learned: Map<string, Learned>,
  ): Promise<{ head: PoolHit[]; total: number }> {
    const { hits: candidates, total } = await this.index.candidates(
      { ...request, limit: HEAD },
      HEAD_POOL,
    );
    const profiles = await this.profiles.read(candidates.map((h) => h.topicId));
    return {
      head: rerankHead(candidates, profiles, request.query, learned, this.options.ranking),
      total,
    };
  }

  private badCursor(): DomainError {
    return new DomainError(
      'invalid_argument',
      'filters.cursor is not valid for this search. Pass the next_cursor of the previous page unchanged, or omit it to start again.',
    );
  }

  /** Binds a cursor to the search it came from (query, filters, mode, communities), not to limit. */
  private listing(
    mode: SearchMode,
    query: string,
    f: z.infer<typeof searchFilters>,
    ids: string[],
  ): string {
    const { cursor: _c, limit: _l, ...rest } = f;
    const hash = createHash('sha256')
      .update(JSON.stringify([mode, query.trim(), rest, [...ids].sort()]))
      .digest('base64url')
      .slice(0, 16);
    return `search:${hash}`;
  }

  /**
   * Query words with no hit in the searched communities get their neighbours one edit away there,
   * except near-stop words (nearStop) when another word of the query matches: such a neighbour
   * weighs next to nothing in any ranking while it widens the match to most of the communities.
   */
  private async expandTypos(
    q: ParsedQuery,
    communityIds: string[],
    frequencies: Frequencies | undefined,
  ): Promise<ParsedQuery> {
    if (this.options.typoTolerance === false || q.terms.length === 0) return q;
    const candidates = q.terms.map((t) => t.word).filter((w) => w.length >= 4 && !/^\d+$/.test(w));
    if (candidates.length === 0) return q;
    const missing = new Set(await this.index.unmatched(candidates, communityIds, frequencies));
    if (missing.size === 0) return q;
    // Near-stop neighbours are kept when no other word matches: then they are all the query has.
    const others = missing.size < candidates.length;
    const kept = (a: string) => !others || !nearStop(a, frequencies);
    const terms = await Promise.all(
      q.terms.map(async (t) =>
        missing.has(t.word)
          ? {
              word: t.word,
              alternatives: (await this.index.corrections(t.word, communityIds)).filter(kept),
            }
          : t,
      ),
    );
    return { ...q, terms };
  }

  private normalize(raw: number): number {
    // A match never scores 0 (BM25's idf is ~0 for a word in most documents of a tiny corpus).
    return Math.max(0.0001, round4(raw <= 0 ? 0 : raw / (raw + this.halfPoint)));
  }

  private result(
    h: IndexHit,
    communities: Community[],
    q: ParsedQuery,
    score: number,
  ): SearchResult {
    const community = communities.find((c) => c.id === h.communityId)!;
    const first = h.position === 1;
    const sourceType = first ? (h.categoryKind === 'knowledge_base' ? 'article' : 'topic') : 'post';
    const result: SearchResult = {
      source_type: sourceType,
      source_id: first ? h.topicId : h.postId,
      topic_id: h.topicId,
      title: h.title,
      snippet: makeSnippet(plainText(h.body), queryWords(q)),
      url: topicUrl(this.urls, community.slug, h.topicSlug, first ? undefined : h.postId),
      score,
      category: h.categorySlug,
      author: authorName({ kind: h.authorKind, name: h.authorName }),
      is_solution: h.solutionPostId === h.postId,
      created_at: new Date(h.createdAt).toISOString(),
    };
    if (communities.length > 1) result.community = community.slug;
    return result;
  }

  private async semanticOrder(
    request: EngineRequest,
    learned: Map<string, Learned>,
    query: string,
    mode: SearchMode,
  ): Promise<{ hits: IndexHit[]; ordered: { id: string; score: number }[] }> {
    const embedder = this.options.embedder!;
    const parsed = request.query;
    // Widen the pool: every word of the question (stop words aside) may bring candidates.
    const wide: ParsedQuery = {
      ...parsed,
      terms: parsed.terms.length
        ? parsed.terms
        : words(query).map((w) => ({ word: w, alternatives: [] })),
    };
    const { hits } = await this.index.search({
      ...request,
      query: wide,
      limit: this.options.semanticPool ?? 200,
    });
    if (hits.length === 0) return { hits, ordered: [] };
    let sims: { id: string; sim: number }[];
    if (this.options.vectors) {
      // Stored vectors; a post the background fill has not reached yet has no semantic rank.
      const [[qv], stored] = await Promise.all([
        embedder.embed([query]),
        this.options.vectors.get(hits.map((h) => h.postId)),
      ]);
      sims = hits.flatMap((h) =>
        stored.has(h.postId) ? [{ id: h.postId, sim: cosine(qv!, stored.get(h.postId)!) }] : [],
      );
    } else {
      const texts = hits.map((h) => `${h.title}\n${plainText(h.body).slice(0, 2000)}`);
      const [qv, ...dv] = await embedder.embed([query, ...texts]);
      sims = hits.map((h, i) => ({ id: h.postId, sim: cosine(qv!, dv[i]!) }));
    }
    sims.sort((a, b) => b.sim - a.sim);
    if (mode === 'semantic') {
      const ranked = new Set(sims.map((s) => s.id));
      const rest = hits.filter((h) => !ranked.has(h.postId)).map((h) => ({ id: h.postId, sim: 0 }));
      return {
        hits,
        ordered: [...sims, ...rest].map((s) => ({ id: s.id, score: round4(Math.max(0, s.sim)) })),
      };
    }
    // Hybrid fuses what lexical search would answer (the re-ranked head first) with the semantic
    // order; fusing the engine's raw order instead was worse on every labelled set.
    const k = 60;
    const lexical =
      parsed.terms.length === 0 || this.options.ranking?.threadFields === false
        ? hits.map((h) => h.postId)
        : inHeadOrder(hits, (await this.rerankedHead(request, learned)).head);
    const fused = reciprocalRankFusion([lexical, sims.map((s) => s.id)], k);
    const best = 2 / (k + 1);
    return { hits, ordered: fused.map((f) => ({ id: f.id, score: round4(f.score / best) })) };
  }
}

function authorName(author: { kind: string; name: string }): string {
  return author.kind === 'agent' ? `${author.name} (agent)` : author.name;
}

function round4(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 10_000) / 10_000;
}
