// What a search request is before it runs: its filters checked (each error names the field and the
// fix), the listing its cursors are bound to, and the cursor shapes a search page hands out.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { DomainError } from '../domain/errors.ts';
import { searchFilters } from '../domain/fields.ts';
import { CURSOR_SHAPES, decodeCursor, type CursorShape } from '../domain/cursor.ts';
import type { Frequencies, IndexFilters, SearchScope } from './index.ts';
import type { ParsedQuery } from './query.ts';
import type { SearchFilters, SearchMode } from './types.ts';

/** What the engine is asked for a search: its scope, parsed query, filters and learned word frequencies. */
export type EngineRequest = {
  scope: SearchScope;
  query: ParsedQuery;
  filters: IndexFilters;
  frequencies?: Frequencies;
  /**
   * The environment the search names (its filter, or "node 22" in its words): threads with an
   * answer that worked there rank above those that worked elsewhere.
   */
  prefer?: Record<string, string>;
};

/** A version as queries write it after a name: "22", "3.12", "v16.4". */
const VERSION = /^v?\d+(\.\d+)*$/;

/**
 * The name → version pairs a query names ("node 22 fetch fails" names {"node": "22"}): a word
 * followed by a version, at most three of them.
 */
export function namedEnvironment(query: string): Record<string, string> {
  const words = query
    .toLowerCase()
    .split(/[\s,;()]+/)
    .filter(Boolean);
  const named: Record<string, string> = {};
  for (let i = 0; i + 1 < words.length && Object.keys(named).length < 3; i++) {
    const name = words[i]!;
    const version = words[i + 1]!;
    if (/^[a-z][a-z0-9.+_-]{0,39}$/.test(name) && !VERSION.test(name) && VERSION.test(version))
      named[name] = version.replace(/^v/, '');
  }
  return named;
}

export type CheckedFilters = z.infer<typeof searchFilters>;

/** A cursor inside the re-ranked head: key "h:<offset>". */
export const HEAD_CURSOR = /^h:(\d{1,4})$/;
export const HEAD_CURSOR_SHAPE: CursorShape = { key: 'text', id: { constant: 'h' } };

export function parseFilters(filters: SearchFilters): CheckedFilters {
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

/** The engine's filters of checked search filters. */
export function indexFilters(f: CheckedFilters): IndexFilters {
  return {
    categorySlug: f.category,
    tags: f.tags,
    solvedOnly: f.solved_only,
    sourceTypes: f.source_types,
    author: f.author,
    since: f.since,
    until: f.until,
    environment: f.environment,
  };
}

export function badCursor(): DomainError {
  return new DomainError(
    'invalid_argument',
    'filters.cursor is not valid for this search. Pass the next_cursor of the previous page unchanged, or omit it to start again.',
  );
}

/** Binds a cursor to the search it came from (query, filters, mode, scope), not to limit. */
export function listing(
  mode: SearchMode,
  query: string,
  f: CheckedFilters,
  scope: SearchScope,
): string {
  const { cursor: _c, limit: _l, ...rest } = f;
  const within = scope.kind === 'public' ? 'public' : [...scope.ids].sort();
  const hash = createHash('sha256')
    .update(JSON.stringify([mode, query.trim(), rest, within]))
    .digest('base64url')
    .slice(0, 16);
  return `search:${hash}`;
}

/** The environment a search prefers: its filter's, else the one its words name (none: undefined). */
export function preferred(
  filter: Record<string, string> | undefined,
  query: string,
): Record<string, string> | undefined {
  const env = filter && Object.keys(filter).length ? filter : namedEnvironment(query);
  return Object.keys(env).length ? env : undefined;
}

/** Whether `cursor` is one that the listing `bound` handed out. */
export function cursorOf(bound: string, cursor: string): boolean {
  try {
    decodeCursor(bound, cursor, CURSOR_SHAPES.byScore, CURSOR_SHAPES.byOffset, HEAD_CURSOR_SHAPE);
    return true;
  } catch {
    return false;
  }
}
