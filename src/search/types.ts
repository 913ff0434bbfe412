// The search surface shared by MCP (search_community, suggest_answer, search_network) and REST.
// Result objects carry exactly the documented result fields, plus `community` (slug)
// only when more than one community was searched (network search).
import type { ShownSignals } from './signals.ts';
import type { ShownKnowledge } from '../domain/knowledge/shown.ts';

export type SourceType = 'topic' | 'post' | 'article';
export type SearchMode = 'lexical' | 'semantic' | 'hybrid';

export type SearchFilters = {
  /** Category slug. */
  category?: string;
  /** Topics carrying every one of these tags. */
  tags?: string[];
  /** Only topics with an accepted answer. */
  solved_only?: boolean;
  source_types?: SourceType[];
  /** Author display name (case-insensitive). */
  author?: string;
  /** ISO 8601 date or date-time; inclusive. */
  since?: string;
  /** ISO 8601 date or date-time; exclusive. */
  until?: string;
  /** "relevance" (default) or "newest": topics by their newest matching post. */
  sort?: 'relevance' | 'newest';
  /** Default 10, max 50. */
  limit?: number;
  /** next_cursor of the previous page, unchanged. */
  cursor?: string;
  /** Only posts that ran there: a version prefix per name ({"node": "22"}). */
  environment?: Record<string, string>;
};

export type SearchResult = {
  source_type: SourceType;
  source_id: string;
  topic_id: string;
  title: string;
  /** Plain text around the matched words; each match is marked **like this**; cuts are "…". */
  snippet: string;
  url: string;
  /** In [0, 1]; higher is better. Comparable within one engine, not across engines. */
  score: number;
  /** Category slug. */
  category: string;
  author: string;
  /** The author's reputation in the post's community (present once earned). */
  author_reputation?: number;
  is_solution: boolean;
  created_at: string;
  /** Community slug; present only when several communities were searched. */
  community?: string;
} & ShownKnowledge;

export type SearchResponse = {
  query: string;
  mode: SearchMode;
  total: number;
  results: SearchResult[];
  next_cursor?: string;
};

export type SuggestResponse = {
  question: string;
  /** In [0, 1]: how likely the first answer resolves the question. */
  confidence: number;
  answers: Array<SearchResult & { accepted: boolean } & ShownSignals>;
  /** A plain statement of what was found, or what to do when nothing fits. */
  message: string;
};
