// Content terms for the ranking the service does itself (thread fields, feedback terms, learned
// associations: ./rerank.ts, ./lexicon.ts), independent of either engine's tokenizer: the same
// words of query.ts, minus stop words, numbers and machine noise (dates, ids), lightly stemmed so
// that "packages", "packaging" and "packaged" meet at "packag".
import { STOP_WORDS, words } from './query.ts';

const MAX_DIGITS = 2;

/**
 * A light English stemmer: plural and -ing/-ed endings and a final e or y only (a stem never gets shorter than three
 * letters; a doubled final consonant is undoubled: "running" → "run"). Conservative on purpose:
 * it must map a question's word and the thread's word to the same stem, never two unrelated words
 * to one.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    if (
      w.endsWith(suffix) &&
      w.length - suffix.length >= 3 &&
      /[aeiouy]/.test(w.slice(0, -suffix.length))
    ) {
      w = w.slice(0, -suffix.length);
      if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  // "movie"/"movies", "library"/"libraries": a final e is dropped, a final y is i.
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  else if (w.endsWith('y') && w.length > 3) w = `${w.slice(0, -1)}i`;
  return w;
}

/** Whether a word carries meaning for ranking: a letter first, few digits, not a stop word. */
function contentWord(w: string): boolean {
  if (w.length < 2 || w.length > 40 || STOP_WORDS.has(w) || !/^\p{L}/u.test(w)) return false;
  let digits = 0;
  for (let i = 0; i < w.length; i++) if (w.charCodeAt(i) >= 48 && w.charCodeAt(i) <= 57) digits++;
  return digits <= MAX_DIGITS;
}

/** Word → its term ('' when not a content word): most words of a text repeat, tokenizing is the cost. */
const memo = new Map<string, string>();
const MEMO_MAX = 100_000;

/** The stemmed content terms of a text, in order (repeats kept: they are term frequencies). */
export function contentTerms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    let t = memo.get(w);
    if (t === undefined) {
      t = contentWord(w) ? stem(w) : '';
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(w, t);
    }
    if (t) out.push(t);
  }
  return out;
}

/** Term → count. */
export function termCounts(
  terms: string[],
  into: Map<string, number> = new Map(),
): Map<string, number> {
  for (const t of terms) into.set(t, (into.get(t) ?? 0) + 1);
  return into;
}
