// A word-level diff of two texts, for the history pages: the longest common subsequence of their
// words (a word with the whitespace after it is one token; tokens compare by the word alone, so a
// change of spacing is no change), after the common start and end are set aside. Past MAX_CELLS
// of table (two long texts rewritten throughout) the differing middle is shown as removed, then
// added. As HTML, removals are <del> and additions <ins>, each also said in words to screen
// readers and marked by line-through and underline (not by colour alone).
import { html, type Html } from './template.ts';

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

const MAX_CELLS = 4_000_000;

/** The text's tokens: any leading whitespace, then each word with the whitespace after it. */
export function tokens(text: string): string[] {
  return text.match(/^\s+|\S+\s*/g) ?? [];
}

const word = (t: string) => t.trimEnd();

/** What changed from `before` to `after`, in order; adjacent parts of one kind merged. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && word(a[start]!) === word(b[start]!)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && word(a[endA - 1]!) === word(b[endB - 1]!)) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    const last = parts.at(-1);
    if (last && last.kind === kind) last.text += text;
    else if (text) parts.push({ kind, text });
  };
  for (const t of b.slice(0, start)) push('same', t);
  for (const p of middle(a.slice(start, endA), b.slice(start, endB))) push(p.kind, p.text);
  for (const t of b.slice(endB)) push('same', t);
  return parts;
}

/** The differing middle: by the LCS table of its words, or removed-then-added when too large. */
function middle(a: string[], b: string[]): DiffPart[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > MAX_CELLS)
    return [
      { kind: 'removed', text: a.join('') },
      { kind: 'added', text: b.join('') },
    ];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * width + j] =
        word(a[i]!) === word(b[j]!)
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const out: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (word(a[i]!) === word(b[j]!)) {
      out.push({ kind: 'same', text: b[j]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push({ kind: 'removed', text: a[i++]! });
    } else {
      out.push({ kind: 'added', text: b[j++]! });
    }
  }
  while (i < n) out.push({ kind: 'removed', text: a[i++]! });
  while (j < m) out.push({ kind: 'added', text: b[j++]! });
  return out;
}

/** Whether anything but spacing changed. */
export function changed(parts: DiffPart[]): boolean {
  return parts.some((p) => p.kind !== 'same');
}

/**
 * The diff as HTML (escaped): <del> and <ins>, each announced in words, in a .diff `tag`. A mark
 * ends at its last word (the whitespace after it is left outside); a removal right before an
 * addition keeps a space between the two.
 */
export function diffHtml(parts: DiffPart[], tag: 'div' | 'span' = 'div'): Html {
  const mark = (kind: 'added' | 'removed', text: string) => {
    const words = text.trimEnd();
    const after = text.slice(words.length);
    const hidden = (said: string) => html`<span class="visually-hidden">${said}</span>`;
    return kind === 'added'
      ? html`<ins>${hidden('[added: ')}${words}${hidden(']')}</ins>${after}`
      : html`<del>${hidden('[removed: ')}${words}${hidden(']')}</del>${after}`;
  };
  const inner = parts.map((p, i) => {
    if (p.kind === 'same') return p.text;
    if (p.kind === 'added') return mark('added', p.text);
    const glued = parts[i + 1]?.kind === 'added' && !/\s$/.test(p.text);
    return html`${mark('removed', p.text)}${glued ? ' ' : ''}`;
  });
  return tag === 'div'
    ? html`<div class="diff">${inner}</div>`
    : html`<span class="diff">${inner}</span>`;
}
