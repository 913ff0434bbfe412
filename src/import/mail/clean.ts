// Turning mail into forum content: subjects without "Re:/Fwd:/[list]" noise, bodies without
// signatures, list footers, PGP armour and the quoted copy of the previous message, then made safe
// to store as Markdown (plain-text mail must not turn into headings) with addresses hidden.

const PREFIX = /^\s*(?:(?:re|fwd?|aw|sv|antw|wg|tr)(?:\[\d+\]|\^\d+)?\s*:|\[[^\]\n]{1,60}\])\s*/i;

/** Subject without reply/forward prefixes and list tags, whitespace collapsed. */
export function cleanSubject(subject: string): string {
  let s = subject.replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 10; i++) {
    const next = s.replace(PREFIX, '');
    if (next === s) break;
    s = next;
  }
  return s.trim();
}

/** The key messages are threaded by when references fail: cleaned, lower-case. */
export function subjectKey(subject: string): string {
  return cleanSubject(subject).toLowerCase();
}

export function isReplySubject(subject: string): boolean {
  return /^\s*(?:\[[^\]\n]{1,60}\]\s*)*(re|fwd?|aw|sv|antw)\s*(\[\d+\])?\s*:/i.test(subject);
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

/** Addresses are never shown: "jane@x.org" becomes "jane@…". */
export function hideAddresses(text: string): string {
  return text.replace(EMAIL, (address) => `${address.split('@')[0]}@…`);
}

const FOOTER_HINT =
  /mailing list|listinfo|unsubscribe|sponsored by|^https?:\/\/|list archive|to post to this list/i;
const ATTRIBUTION = /(wrote|writes|said|schrieb|a écrit|escribió)\s*:\s*$/i;

export function cleanBody(text: string): string {
  let lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines = stripPgp(lines);
  lines = cutAt(lines, (line) =>
    /^-{2,}\s*Original Message\s*-{2,}$/i.test(line.trim()) ||
    /^-{5,} ?Forwarded message/i.test(line.trim())
      ? 'cut'
      : 'keep',
  );
  lines = cutFooter(lines);
  lines = cutAt(lines, (line) => (/^-- ?$/.test(line) ? 'cut' : 'keep')); // signature delimiter
  lines = dropQuotes(lines);
  const body = lines
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return escapeMarkdown(hideAddresses(body));
}

function cutAt(lines: string[], test: (line: string) => 'cut' | 'keep'): string[] {
  const index = lines.findIndex((line) => test(line) === 'cut');
  return index >= 0 ? lines.slice(0, index) : lines;
}

/**
 * The list footer starts at a rule line (____ / ---- / ====) followed within a few lines by list
 * boilerplate, at a rule carrying a sponsor banner ("---- Yahoo! Groups Sponsor ----"), or at an
 * unsubscribe notice among the last lines.
 */
function cutFooter(lines: string[]): string[] {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const rule = /^[_=-]{10,}$/.test(line);
    if (rule && lines.slice(i + 1, i + 6).some((l) => FOOTER_HINT.test(l.trim())))
      return lines.slice(0, i);
    if (/^-{3,}.*\b(sponsor|advertisement)\b/i.test(line)) return lines.slice(0, i);
    if (i >= lines.length - 15 && /^(to unsubscribe\b|unsubscribe:|your use of yahoo)/i.test(line))
      return lines.slice(0, i);
  }
  return lines;
}

function stripPgp(lines: string[]): string[] {
  const out: string[] = [];
  let skipping: 'header' | 'signature' | null = null;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '-----BEGIN PGP SIGNED MESSAGE-----') {
      skipping = 'header';
      continue;
    }
    if (skipping === 'header') {
      if (trimmed === '') skipping = null; // "Hash: SHA1" lines end at the first blank line
      continue;
    }
    if (trimmed === '-----BEGIN PGP SIGNATURE-----') {
      skipping = 'signature';
      continue;
    }
    if (skipping === 'signature') {
      if (trimmed === '-----END PGP SIGNATURE-----') skipping = null;
      continue;
    }
    out.push(line.replace(/^- (?=-)/, '')); // dash-escaped lines of clearsigned text
  }
  return out;
}

function quoteDepth(line: string): number {
  const m = /^\s*((?:>\s?)+)/.exec(line);
  return m ? (m[1]!.match(/>/g) ?? []).length : 0;
}

/**
 * Quoted text: the trailing block (bottom-quoting) and its attribution line go; nested quotes
 * (quotes of quotes) go; a single-level quote followed by an answer stays, as Markdown blockquote
 * context for the reply. If nothing but quotes remain, the message is kept whole rather than empty.
 */
function dropQuotes(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && (quoteDepth(lines[end - 1]!) > 0 || lines[end - 1]!.trim() === '')) end--;
  let kept = lines.slice(0, end).filter((line) => quoteDepth(line) < 2);
  // Attribution lines ("On Tue, Jane wrote:") directly before a quote or at the very end.
  kept = kept.filter((line, i) => {
    if (!ATTRIBUTION.test(line.trim())) return true;
    const next = kept.slice(i + 1).find((l) => l.trim() !== '');
    return next !== undefined && quoteDepth(next) === 0;
  });
  kept = kept.map((line) => (quoteDepth(line) === 1 ? line.replace(/^\s*>\s?/, '> ') : line));
  return kept.some((line) => line.trim() !== '' && quoteDepth(line) === 0) ? kept : lines;
}

/**
 * Plain text stored as Markdown: keep paragraphs, lists and indented code, but stop characters at
 * the start of a line from becoming headings or rules ("# comment", "-----", "=====").
 */
function escapeMarkdown(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (/^\s{0,3}#/.test(line)) return line.replace('#', '\\#');
      if (/^\s{0,3}([-=_*])(\s*\1){2,}\s*$/.test(line)) return `\\${line.trim()}`;
      if (/^\s{0,3}=+\s*$/.test(line)) return `\\${line.trim()}`;
      return line;
    })
    .join('\n');
}
