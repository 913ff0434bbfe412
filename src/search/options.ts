// The options of the search service (how it ranks, what it reports to) and of one search (other
// phrasings to fuse with the query, whether every word must match).
import type { Logger } from '../log.ts';
import type { Embedder } from './embedder.ts';
import type { WordsRequired } from './query.ts';
import type { RerankOptions } from './rerank.ts';
import type { SignalOptions } from './signals.ts';
import type { SearchMode } from './types.ts';
import type { FeedbackOptions } from './feedback.ts';

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
  /** Which of the threads' votes and confirmations weigh on the head (./signals.ts; false: none). */
  signals?: SignalOptions | false;
  /** Where a failing embedder is reported (summarized, ./fallback.ts). */
  logger?: Logger;
  /** Pseudo-relevance feedback after a weak first pass (./feedback.ts; default off). */
  feedback?: FeedbackOptions;
  /** Told how long each search took, by mode (metrics). */
  observe?: (mode: SearchMode, seconds: number) => void;
};

/** Other phrasings searched and fused with the query's; whether every word must match. */
export type QueryOptions = { alternatives?: string[]; words?: WordsRequired };
