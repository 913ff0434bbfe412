// SearchService: what MCP (search_community, suggest_answer, search_network) and REST call.
// The caller has already authorized what it passes: the communities of a community search (or the
// few a network search names), or 'public' for every public community (the network, never listed:
// a search's cost follows its matches). A search of one community ranks by that community's own
// statistics; any other by its scope's (the network's: its public posts'). Validation errors are
// DomainError('invalid_argument') naming the field and the fix. The parts: request.ts (filters,
// cursors), reranked.ts (the lexical order), semantic.ts (semantic and hybrid), results.ts (hits as
// results), suggest.ts (suggest_answer), fusion.ts (a question's alternative phrasings, fused).
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import { DomainError } from '../domain/errors.ts';
import { LIMITS } from '../domain/fields.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../domain/cursor.ts';
import type { IndexHit, SearchIndex } from './index.ts';
import { everyWordRequired, parseQuery, type ParsedQuery, type WordsRequired } from './query.ts';
import { frequenciesOf, Lexicon } from './lexicon.ts';
import type { ScopeKnowledge } from './rerank.ts';
import { Profiles } from './profiles.ts';
import {
  badCursor,
  cursorOf,
  HEAD_CURSOR,
  HEAD_CURSOR_SHAPE,
  indexFilters,
  listing,
  parseFilters,
  preferred,
  type CheckedFilters,
  type EngineRequest,
} from './request.ts';
import { rerankedPage, type Reranking } from './reranked.ts';
import { semanticOrder } from './semantic.ts';
import { HALF_POINT, normalizeScore, type UrlConfig } from './results.ts';
import { checkSuggestion, closeSolved, suggestFrom } from './suggest.ts';
import { expandTypos } from './typos.ts';
import {
  presentPage,
  scopeFrequencies,
  scopeOf,
  threadSignals,
  threadsWorkedIn,
  type Page,
  type Scored,
  type SearchWithin,
} from './scope.ts';
import { EmbedderHealth, EmbedderUnavailable } from './fallback.ts';
import type { SearchFilters, SearchMode, SearchResponse, SuggestResponse } from './types.ts';
import { withoutHidden } from '../domain/moderation/hidden.ts';
import { fusedFind } from './fusion.ts';
import { withFeedback } from './feedback.ts';

export type { UrlConfig } from './results.ts';
export type { QueryOptions, SearchOptions } from './options.ts';
import type { QueryOptions, SearchOptions } from './options.ts';

type Keyset = { key: number | string; id: string };

export type { SearchWithin } from './scope.ts';

/** A search once checked and parsed: what its lexical or semantic page is computed from. */
type Prepared = {
  within: SearchWithin;
  query: string;
  /** The query as cursors know it (a search of every word is another listing than of any word). */
  key: string;
  f: CheckedFilters;
  knowledge: ScopeKnowledge;
  parsed: ParsedQuery;
  request: EngineRequest;
};

export class SearchService {
  private readonly halfPoint: number;
  /** Per-community document frequencies and term associations, learned in the background. */
  readonly lexicon: Lexicon;
  /** Each topic's words per field, stored at index time (the re-ranked head reads them). */
  readonly profiles: Profiles;
  private readonly reranking: Reranking;
  /** Whether the embedder answers; semantic and hybrid run lexically while it fails. */
  private readonly health: EmbedderHealth;
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
    this.reranking = {
      index,
      profiles: this.profiles,
      ranking: options.ranking,
      signals: threadSignals(store),
      signalOptions: options.signals,
      workedIn: threadsWorkedIn(store),
    };
    this.health = new EmbedderHealth(options.logger);
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
    within: SearchWithin,
    query: string,
    filters: SearchFilters = {},
    mode: SearchMode = 'lexical',
    { alternatives = [], words = 'any' }: QueryOptions = {},
  ): Promise<SearchResponse> {
    if (typeof query === 'string' && query.trim().length > LIMITS.searchQuery.max) {
      throw new DomainError(
        'invalid_argument',
        `query: must be at most ${LIMITS.searchQuery.max} characters.`,
      );
    }
    const started = performance.now();
    const find = (q: string, f: SearchFilters) => this.find(within, q, f, mode, words);
    const first = await fusedFind(find, query, alternatives, filters);
    const { response, communities } = this.options.feedback
      ? await withFeedback(
          first,
          find,
          { profiles: this.profiles, lexicon: this.lexicon, scope: scopeOf(within) },
          query,
          filters,
          this.options.feedback,
        )
      : first;
    this.options.observe?.(mode, (performance.now() - started) / 1e3);
    return this.shown(communities, response);
  }

  async suggestAnswer(
    within: SearchWithin,
    question: string,
    limit = 3,
    options: { askWith?: string; alternatives?: string[] } = {},
  ): Promise<SuggestResponse> {
    checkSuggestion(question, limit);
    const mode: SearchMode = this.options.embedder ? 'hybrid' : 'lexical';
    const found = await fusedFind(
      (q, f) => this.find(within, q, f, mode),
      question,
      options.alternatives ?? [],
      { limit: 20 },
    );
    const { parsed, communities } = found;
    const response = await this.shown(communities, found.response);
    const askWith = options.askWith ?? 'create_topic';
    const { store, urls } = this;
    return suggestFrom(
      { store, urls, communities, named: within === 'public', question, limit, askWith },
      response,
      parsed,
    );
  }

  /**
   * The solved topics of `community` that answer `question` most closely (./suggest.ts,
   * closeSolved): the check before a new question is posted.
   */
  async closeSolved(community: Community, question: string, limit = 3): Promise<SuggestResponse> {
    const { store, urls, index, lexicon, halfPoint } = this;
    return closeSolved({ store, urls, index, lexicon, halfPoint }, community, question, limit);
  }

  /** The response without hidden posts (../domain/moderation/hidden.ts). */
  private async shown(communities: Community[], response: SearchResponse): Promise<SearchResponse> {
    const results = await withoutHidden(this.store, communities, response.results);
    return results.length === response.results.length ? response : { ...response, results };
  }

  /**
   * search() without the query's length limit (a question, suggest_answer, has its own), with the
   * query as it was searched (typo neighbours added). Semantic and hybrid run lexically (and say
   * so) while the embedder fails, and so does the next page of such a lexical answer.
   */
  private async find(
    within: SearchWithin,
    query: string,
    filters: SearchFilters,
    mode: SearchMode,
    words: WordsRequired = 'any',
  ): Promise<{ response: SearchResponse; parsed: ParsedQuery; communities: Community[] }> {
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
    const f = await this.byHandle(parseFilters(filters));
    void this.warm();
    const scope = scopeOf(within);
    // One community ranks by what its own text taught (its learned lexicon: typo expansion, the
    // engine's idf, the re-ranked head); any other scope by the frequencies counted in it.
    const one = scope.kind === 'communities' && scope.ids.length === 1 ? scope.ids : [];
    const learned = this.lexicon.learned(one);
    const frequencies = one.length ? frequenciesOf(learned, one) : undefined;
    const typed = parseQuery(query);
    const every = words === 'all' && typed.terms.length > 1;
    const parsed = every
      ? everyWordRequired(typed)
      : this.options.typoTolerance === false
        ? typed
        : await expandTypos(this.index, typed, scope, frequencies);
    const key = every ? `${query}\u0000every word` : query;
    const search: Prepared = {
      within,
      query,
      key,
      f,
      knowledge: {
        learned,
        frequencies: one.length ? frequencies : await scopeFrequencies(this.index, parsed, scope),
      },
      parsed,
      request: {
        scope,
        query: parsed,
        filters: indexFilters(f),
        frequencies,
        prefer: preferred(f.environment, query),
      },
    };
    const found = (page: Page) => ({ parsed, ...page });
    // By date there is no relevance to fuse: the lexical matches, newest first, in any mode.
    if (mode === 'lexical' || f.sort === 'newest')
      return found(await this.lexicalPage(search, f.cursor));
    // A cursor of a lexical page (a fallback's) goes on lexically.
    const lexicalCursor = f.cursor && cursorOf(listing('lexical', key, f, scope), f.cursor);
    if (!lexicalCursor) {
      if (!this.health.available()) this.health.skipped();
      else {
        try {
          const { page, embedded } = await this.semanticPage(search, mode, f.cursor);
          if (embedded) this.health.succeeded();
          return found(page);
        } catch (err) {
          if (!(err instanceof EmbedderUnavailable)) throw err;
          this.health.failed(err);
        }
      }
    }
    // Lexically from the first page when the cursor was one of the semantic order (checked: a
    // cursor of neither listing is refused as in any search).
    if (f.cursor && !lexicalCursor)
      decodeCursor(
        listing(mode, key, f, scope),
        f.cursor,
        CURSOR_SHAPES.byScore,
        CURSOR_SHAPES.byOffset,
      );
    return found(await this.lexicalPage(search, lexicalCursor ? f.cursor : undefined));
  }

  private async present(p: Prepared, scored: Scored, page: Omit<SearchResponse, 'results'>) {
    return presentPage({ store: this.store, urls: this.urls }, p.within, p.parsed, scored, page);
  }

  /**
   * An author given as "@handle" is the person with that handle, matched by their display name as
   * any author is (posts keep the name they were written under); an unknown handle matches nobody.
   */
  private async byHandle(f: CheckedFilters): Promise<CheckedFilters> {
    if (!f.author?.startsWith('@')) return f;
    const person = await this.store.people.getByHandle(f.author.slice(1));
    return person ? { ...f, author: person.displayName } : f;
  }

  private async lexicalPage(p: Prepared, cursor: string | undefined): Promise<Page> {
    const { query, key, f, knowledge, request } = p;
    const bound = listing('lexical', key, f, request.scope);
    const after = decodeCursor(
      bound,
      cursor,
      CURSOR_SHAPES.byScore,
      CURSOR_SHAPES.byOffset,
      HEAD_CURSOR_SHAPE,
    );
    const headOffset =
      after && typeof after.key === 'string' ? HEAD_CURSOR.exec(after.key)?.[1] : undefined;
    if (after && headOffset === undefined && (typeof after.key !== 'number' || !after.id))
      throw badCursor();
    if (headOffset !== undefined && this.options.ranking?.threadFields === false) throw badCursor();
    const limit = f.limit ?? 10;
    const respond = (page: IndexHit[], total: number, next?: Keyset): Promise<Page> =>
      this.present(
        p,
        page.map((hit) => ({ hit, score: normalizeScore(hit.raw, this.halfPoint) })),
        {
          query,
          mode: 'lexical',
          total,
          ...(next ? { next_cursor: encodeCursor(bound, next) } : {}),
        },
      );
    const newest = f.sort === 'newest';
    if (newest && headOffset !== undefined) throw badCursor();
    if (!newest && this.options.ranking?.threadFields !== false)
      return respond(
        ...(await rerankedPage(this.reranking, request, knowledge, limit, headOffset, after)),
      );
    // The engine's own order: by boosted relevance, or (newest) by the date of each topic's newest match.
    const { hits, total } = await this.index.search({
      ...request,
      newest,
      limit: limit + 1,
      after: after ? { raw: Number(after.key), id: after.id } : undefined,
    });
    const page = hits.slice(0, limit);
    const last = page[page.length - 1];
    return respond(
      page,
      total,
      hits.length > limit && last
        ? { key: newest ? last.key! : last.raw, id: last.postId }
        : undefined,
    );
  }

  /** Semantic / hybrid: re-rank a lexical candidate pool; offset cursor over the fused order. */
  private async semanticPage(
    p: Prepared,
    mode: 'semantic' | 'hybrid',
    cursor: string | undefined,
  ): Promise<{ page: Page; embedded: boolean }> {
    const { query, key, f, knowledge, request } = p;
    const bound = listing(mode, key, f, request.scope);
    const after = decodeCursor(
      bound,
      cursor,
      CURSOR_SHAPES.byScore,
      CURSOR_SHAPES.byOffset,
      HEAD_CURSOR_SHAPE,
    );
    if (after && typeof after.key === 'string' && HEAD_CURSOR.test(after.key)) throw badCursor();
    const offset = after ? Number(after.key) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw badCursor();
    const limit = f.limit ?? 10;
    const {
      hits: pool,
      ordered,
      embedded,
    } = await semanticOrder(
      {
        ...this.reranking,
        embedder: this.options.embedder!,
        vectors: this.options.vectors,
        semanticPool: this.options.semanticPool,
      },
      request,
      knowledge,
      query,
      mode,
    );
    const byId = new Map(pool.map((h) => [h.postId, h]));
    const scored = ordered
      .slice(offset, offset + limit)
      .map(({ id, score }) => ({ hit: byId.get(id)!, score }));
    const next =
      offset + limit < ordered.length
        ? { next_cursor: encodeCursor(bound, { key: offset + limit, id: 'o' }) }
        : {};
    const page = await this.present(p, scored, { query, mode, total: ordered.length, ...next });
    return { page, embedded };
  }
}
