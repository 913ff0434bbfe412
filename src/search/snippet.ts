// Snippets: a window of the post's plain text (Markdown syntax stripped, see plainText) around the densest cluster of matched words, each match marked **like
// this**, cuts shown as "…". The same highlighter serves both engines, so snippets look alike.
//
// Matching is stem-tolerant without a stemmer: a text word matches a query word when they are
// equal, one is the other plus up to 4 letters ("run" ~ "running"), or they share a prefix of at
// least 5 letters with at most 3 left over on each side ("configure" ~ "configuring").

const MAX_SOURCE = 20_000;
const TOKEN = /[\p{L}\p{N}]+/gu;

export function wordMatches(textWord: string, queryWord: string): boolean {
  if (textWord === queryWord) return true;
  const n = Math.min(textWord.length, queryWord.length);
  if (n < 3) return false;
  let p = 0;
  while (p < n && textWord[p] === queryWord[p]) p++;
  const restText = textWord.length - p;
  const restQuery = queryWord.length - p;
  // One word is the other plus a suffix ("run" ~ "running"), or both share a long stem.
  if (p === n) return Math.max(restText, restQuery) <= 4;
  return p >= 5 && restText <= 3 && restQuery <= 3;
}

/**
 * Plain text of a Markdown body for snippets, by a light syntax stripper (links keep their text,
 * code fences, emphasis, headings, quotes, list marks and tags go). Rendering and sanitizing
 * with domain/markdown.ts cost about 1 ms per result and dominated the search time. The result is
 * plain text, never HTML (callers escape it for HTML).
 */
export function plainText(markdown: string): string {
  const source = markdown.length > MAX_SOURCE ? markdown.slice(0, MAX_SOURCE) : markdown;
  return source
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]{0,200}>/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|>+|[-*+]|\d+\.)\s+/gm, '')
    .replace(/(\*\*|__|\*|`|~~)/g, '')
    .replace(
      /&(amp|lt|gt|quot|#39);/g,
      (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** Fraction of the query words (weighted) present in the text: used for suggest_answer confidence. */
export function coverage(
  text: string,
  queryWords: string[],
  weight: (w: string) => number = () => 1,
): number {
  if (queryWords.length === 0) return 0;
  const tokens = new Set(text.toLowerCase().match(TOKEN) ?? []);
  let hit = 0;
  let all = 0;
  for (const q of queryWords) {
    const w = weight(q);
    all += w;
    for (const t of tokens) {
      if (wordMatches(t, q)) {
        hit += w;
        break;
      }
    }
  }
  return all === 0 ? 0 : hit / all;
}

export function makeSnippet(text: string, queryWords: string[], size = 220): string {
  const tokens: { start: number; end: number; match: number }[] = [];
  const lowered = text.toLowerCase();
  for (const m of lowered.matchAll(TOKEN)) {
    const idx = queryWords.findIndex((q) => wordMatches(m[0], q));
    tokens.push({ start: m.index!, end: m.index! + m[0].length, match: idx });
  }
  if (text.length <= size && tokens.every((t) => t.match < 0)) return text;
  // Best window: most distinct query words, then most matches, starting at a token.
  let bestStart = 0;
  let bestScore = -1;
  let j = 0;
  const counts = new Map<number, number>();
  let matches = 0;
  for (let i = 0; i < tokens.length; i++) {
    while (j < tokens.length && tokens[j]!.end - tokens[i]!.start <= size) {
      const m = tokens[j]!.match;
      if (m >= 0) {
        counts.set(m, (counts.get(m) ?? 0) + 1);
        matches++;
      }
      j++;
    }
    const score = counts.size * 100 + matches;
    if (score > bestScore) {
      bestScore = score;
      bestStart = i;
    }
    const m = tokens[i]!.match;
    if (m >= 0) {
      const c = counts.get(m)! - 1;
      if (c === 0) counts.delete(m);
      else counts.set(m, c);
      matches--;
    }
  }
  // Start a few words before the first match so it has some context.
  let first = bestStart;
  const firstMatch = tokens.findIndex((t, k) => k >= bestStart && t.match >= 0);
  if (firstMatch >= 0 && bestScore > 0) first = Math.max(0, firstMatch - 4);
  const from = tokens.length ? tokens[first]!.start : 0;
  let to = Math.min(text.length, from + size);
  // Do not cut a word in half at the end.
  const cut = tokens.find((t) => t.start < to && t.end > to);
  if (cut) to = cut.start;
  let out = '';
  let pos = from;
  for (const t of tokens) {
    if (t.start < from || t.end > to || t.match < 0) continue;
    out += text.slice(pos, t.start) + '**' + text.slice(t.start, t.end) + '**';
    pos = t.end;
  }
  out += text.slice(pos, to);
  out = out.trim();
  return (from > 0 ? '… ' : '') + out + (to < text.length ? ' …' : '');
}
