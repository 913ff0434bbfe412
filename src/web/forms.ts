// Forms: a posted form becomes an operation's arguments by the rules every face reads strings with
// (numbers, checkboxes, lists, nested objects as "a.b" names), so the pipeline validates it exactly
// as it validates an MCP call and its messages come back per field. And the field markup:
// a visible label for every control, hints and errors tied to it with aria-describedby.
import type { AnyOperation } from '../operations/operation.ts';
import type { Failure, Issue } from '../operations/pipeline.ts';
import { inputFromStrings } from '../operations/string-input.ts';
import { html, joinHtml, type Html } from './template.ts';

export type FormData = Record<string, string | File | (string | File)[]>;

/** A field's values; only the form's own fields count (never a name inherited from Object.prototype). */
function values(form: FormData, name: string): string[] {
  const v = Object.hasOwn(form, name) ? form[name] : undefined;
  const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
  return list.filter((x): x is string => typeof x === 'string');
}

/**
 * The operation's arguments from a posted form, typed by its input schema the way every face reads
 * strings (inputFromStrings): "a.b" names fill nested objects, fields it does not have are dropped.
 */
export function formArgs(op: AnyOperation, form: FormData): Record<string, unknown> {
  const fields = Object.keys(form).map((name) => ({
    path: name.split('.'),
    values: values(form, name),
  }));
  return inputFromStrings(op, fields, 'drop');
}

/** A length limit of the field table as a hint says it ("<min> to <max> characters", in digit groups). */
export function lengths(limit: { min: number; max: number }): string {
  return `${limit.min.toLocaleString('en')} to ${limit.max.toLocaleString('en')} characters`;
}

/** Every non-empty value of a repeated field (checkboxes: unchecked boxes are not sent at all). */
export function checkedValues(form: FormData, name: string): string[] {
  return values(form, name).filter((v) => v !== '');
}

/** First value of a form field as a string. */
export function text(form: FormData, name: string): string {
  return values(form, name)[0] ?? '';
}

const idOf = (name: string) => `f-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;

function errorFor(issues: Issue[] | undefined, name: string): string | undefined {
  const own = issues?.filter((i) => i.path === name || i.path.startsWith(`${name}.`));
  return own?.length ? own.map((i) => i.message).join('; ') : undefined;
}

export type FieldSpec = {
  name: string;
  label: string;
  value?: string;
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'search' | 'number' | 'date';
  /** A textarea with this many rows. */
  rows?: number;
  options?: Array<{ value: string; label: string }>;
  required?: boolean;
  autocomplete?: string;
  /** The id of the control (default f-<name>); the title field of /ask is "title" for the script. */
  id?: string;
  /** More attributes of the control (limits such as maxlength, data- hooks for scripts). */
  attrs?: Html;
};

/** One labelled control with its hint and its error message. */
export function field(f: FieldSpec, issues?: Issue[]): Html {
  const id = f.id ?? idOf(f.name);
  const error = errorFor(issues, f.name);
  const described = [f.hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const common = html`id="${id}" name="${f.name}"${f.required ? html` required` : ''}${described ? html` aria-describedby="${described}"` : ''}${error ? html` aria-invalid="true"` : ''}${f.autocomplete ? html` autocomplete="${f.autocomplete}"` : ''}${f.attrs ? html` ${f.attrs}` : ''}`;
  const control = f.options
    ? html`<select ${common}>${f.options.map((o) => html`<option value="${o.value}"${o.value === f.value ? html` selected` : ''}>${o.label}</option>`)}</select>`
    : f.rows
      ? html`<textarea ${common} rows="${f.rows}">${f.value ?? ''}</textarea>`
      : html`<input type="${f.type ?? 'text'}" ${common} value="${f.value ?? ''}">`;
  return html`<div class="field"><label for="${id}">${f.label}</label>${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}${control}</div>`;
}

/** A group of checkboxes (one name, many values) under a legend. */
export function checkboxes(
  name: string,
  legend: string,
  options: Array<{ value: string; label: string }>,
  checked: readonly string[],
  issues?: Issue[],
  /** The start of the boxes' ids (default f-<name>), when one page holds the group more than once. */
  idBase = idOf(name),
): Html {
  const error = errorFor(issues, name);
  const boxes = options.map((o, i) => {
    const id = `${idBase}-${i}`;
    return html`<span class="check"><input type="checkbox" id="${id}" name="${name}" value="${o.value}"${checked.includes(o.value) ? html` checked` : ''}><label for="${id}">${o.label}</label></span>`;
  });
  return html`<fieldset><legend>${legend}</legend>${error ? html`<p class="field-error">${error}</p>` : ''}${joinHtml(boxes, ' ')}</fieldset>`;
}

/** One checkbox with its own label. */
export function checkbox(name: string, label: string, checked: boolean, id = idOf(name)): Html {
  return html`<div class="field"><input type="checkbox" id="${id}" name="${name}" value="on"${checked ? html` checked` : ''}> <label for="${id}" class="inline-label">${label}</label></div>`;
}

/**
 * What went wrong with a submitted form, for the top of the page: the pipeline's message, and each
 * field's issue linked to its field (labels name the fields; without one, the field's name).
 */
export function failureSummary(f: Failure | undefined, labels: Record<string, string> = {}): Html {
  if (!f) return html``;
  if (f.issues?.length) {
    const items = f.issues.map(
      (i) =>
        html`<li><a href="#${idOf(i.path)}">${labels[i.path] ?? i.path}</a>: ${i.message}</li>`,
    );
    const lead = f.stage === 'validate' ? 'Some fields need a change:' : f.message;
    return html`<div class="notice error" role="alert"><p>${lead}</p><ul>${items}</ul></div>`;
  }
  return html`<div class="notice error" role="alert"><p>${f.message}</p></div>`;
}
