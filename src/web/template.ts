// HTML is built only here, by the `html` tagged template: every interpolated string and number is
// escaped (for element content and quoted attribute values alike), a nested Html value is kept as
// it is, an array is its items in order, and null, undefined and false are nothing. A plain string
// never becomes markup by being interpolated; markup that is already safe (a post's Markdown,
// rendered and sanitized by sanitize-html) enters through one greppable door, `sanitizedHtml`.
// Constant markup (icons, fixed fragments) needs no door: an html`…` with nothing interpolated.
// Prettier leaves these templates as written (embeddedLanguageFormatting is off): formatted as
// HTML, their whitespace, and so the pages' bytes, would change.

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML: the five characters that can open markup or close a quoted attribute, escaped. */
function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * Markup that is safe to send. Its text is private (a value of another shape is never one), only
 * this module makes one, and it never turns into text by accident: in a plain `${}` or a `+` it
 * would lose what makes it safe, so that throws. markupOf(h) reads it on purpose.
 */
class SafeHtml {
  readonly #markup: string;
  constructor(markup: string) {
    this.#markup = markup;
  }
  static markupOf(h: SafeHtml): string {
    return h.#markup;
  }
  toString(): never {
    throw new TypeError(
      'Html is not text: put it in an html`…` template, or read it with markupOf',
    );
  }
}

export type Html = SafeHtml;

/** What an html`…` template takes in a `${}`: text (escaped), numbers, Html, lists, or nothing. */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return SafeHtml.markupOf(value);
  if (typeof value === 'string') return esc(value);
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  // The types exclude everything else; a value that slipped past them (true, an object) is a bug.
  throw new TypeError(`html\`…\` cannot show a ${typeof value} value`);
}

/** The tagged template: html`<p class="x">${text}</p>` escapes `text`, keeps nested Html. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  // A template's own strings carry `raw`; an array of strings handed in by a call is refused.
  if (!Array.isArray(strings.raw)) throw new TypeError('html is a tagged template: html`…`');
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Items with `separator` between them (text separators are escaped like any text). */
export function joinHtml(items: readonly HtmlValue[], separator: Html | string): Html {
  const sep = render(separator);
  return new SafeHtml(items.map(render).join(sep));
}

/**
 * The one door for markup made elsewhere: a post's Markdown as rendered and sanitized (sanitize-html
 * keeps only the allowed tags and attributes). Never pass it anything a person or agent typed.
 */
export function sanitizedHtml(markup: string): Html {
  return new SafeHtml(markup);
}

/** The markup, to send as the response body (or to look into, as the layout does). */
export function markupOf(h: Html): string {
  return SafeHtml.markupOf(h);
}
