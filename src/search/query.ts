// User query → a structured query both engines turn into their own syntax with bound parameters
// only, so no FTS5 or tsquery operator typed by a user ever reaches the engine as syntax.
//
//   words            OR over the significant words (stop words dropped), ranked by BM25
//   "two words"      a phrase, required
//   -word            excluded
//
// Words are runs of letters and digits (Unicode); everything else separates them.
import { DomainError } from '../domain/errors.ts';
import { LIMITS } from '../domain/fields.ts';

export type ParsedQuery = {
  /** Significant words, lower case, de-duplicated, each with its alternatives (typo corrections). */
  terms: { word: string; alternatives: string[] }[];
  /** Required phrases (each a list of words). */
  phrases: string[][];
  /** Excluded words. */
  excluded: string[];
};

const MAX_TERMS = 24;
/** The longest text searched: a question given to suggest_answer. */
const MAX_QUERY_LENGTH = LIMITS.question.max;

// A compact English stop list: function words and the "how do I …" scaffolding of questions.
export const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him himself his ' +
    'how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out ' +
    'over own same she should so some such than that the their theirs them themselves then there these they this those through to too ' +
    'under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    'anyone anybody someone somebody anything something know way ways get got getting does doesn don t s ve ll re d m im ' +
    'please thanks thank help hi hello want wanted trying try tried need needs able use using used also still really'
  ).split(/\s+/),
);

const WORD = /[\p{L}\p{N}]+/gu;

export function words(text: string): string[] {
  const lower = text.toLowerCase();
  // NFKC changes nothing in ASCII text (most of it), and costs a pass over the whole string.
  const normal = /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFKC') : lower;
  return (normal.match(WORD) ?? []).filter((w) => w.length <= 64);
}

export function parseQuery(input: string): ParsedQuery {
  const text = input.trim();
  if (!text)
    throw new DomainError(
      'invalid_argument',
      'query must not be empty: pass the words or the question to search for.',
    );
  if (text.length > MAX_QUERY_LENGTH) {
    throw new DomainError(
      'invalid_argument',
      `query is too long (${text.length} characters): keep it under ${MAX_QUERY_LENGTH}.`,
    );
  }
  const phrases: string[][] = [];
  let rest = text.replace(/"([^"]*)"/g, (_, inner: string) => {
    const w = words(inner);
    if (w.length === 1) return ` ${w[0]} `;
    if (w.length > 1) phrases.push(w.slice(0, 12));
    return ' ';
  });
  const excluded = new Set<string>();
  rest = rest.replace(/(^|\s)-([\p{L}\p{N}][^\s]*)/gu, (_, lead: string, token: string) => {
    for (const w of words(token)) excluded.add(w);
    return lead;
  });
  const all = words(rest).filter((w) => !excluded.has(w));
  let significant = all.filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w)));
  // "how to do it" — nothing significant left: search the words as given rather than nothing.
  if (significant.length === 0 && phrases.length === 0) significant = all;
  const unique = [...new Set(significant)].slice(0, MAX_TERMS);
  if (unique.length === 0 && phrases.length === 0) {
    throw new DomainError(
      'invalid_argument',
      'query has no words to search for (only exclusions or punctuation): add at least one word.',
    );
  }
  return {
    terms: unique.map((word) => ({ word, alternatives: [] })),
    phrases,
    excluded: [...excluded].slice(0, MAX_TERMS),
  };
}

/** Every word the query looks for (terms, their alternatives and phrase words), for highlighting. */
export function queryWords(q: ParsedQuery): string[] {
  return [
    ...new Set([...q.terms.flatMap((t) => [t.word, ...t.alternatives]), ...q.phrases.flat()]),
  ];
}

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), capped. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = v;
      best = Math.min(best, v);
    }
    if (best > cap) return cap + 1;
  }
  return rows[a.length]![b.length]!;
}

/**
 * Whether an index term (a stem, e.g. "receiv") is within one edit of the typed word, allowing the
 * stem to be shorter than the word ("recieve" → "receiv": compare "reciev" with "receiv").
 */
export function isCorrection(typed: string, indexTerm: string): boolean {
  if (indexTerm === typed || indexTerm.length < 3) return false;
  if (editDistance(typed, indexTerm, 1) <= 1) return true;
  const extra = typed.length - indexTerm.length;
  return (
    indexTerm.length >= 4 &&
    extra >= 1 &&
    extra <= 3 &&
    editDistance(typed.slice(0, indexTerm.length), indexTerm, 1) <= 1
  );
}

/**
 * Which words a result must hold: `any` (the default of every tool: the words are OR-ed and rank)
 * or `all` (each significant word required, as a one-word phrase; the web's search page asks this
 * first and falls back to `any`, saying so).
 */
export type WordsRequired = 'all' | 'any';

/** Every significant word as a required one-word phrase (the phrases typed stay required too). */
export function everyWordRequired(q: ParsedQuery): ParsedQuery {
  return {
    terms: [],
    phrases: [...q.phrases, ...q.terms.map((t) => [t.word])],
    excluded: q.excluded,
  };
}
