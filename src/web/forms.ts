// Forms: a posted form becomes an operation's arguments by the rules every face reads strings with
// (numbers, checkboxes, lists, nested objects as "a.b" names), so the pipeline validates it exactly
// as it validates an MCP call and its messages come back per field. And the field markup:
// a visible label for every control, hints and errors tied to it with aria-describedby.
import type { AnyOperation } from '../operations/operation.ts';
import type { Failure, Issue } from '../operations/pipeline.ts';
import { inputFromStrings } from '../operations/string-input.ts';
import { esc } from './html.ts';

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
  attrs?: string;
};

/** One labelled control with its hint and its error message. */
export function field(f: FieldSpec, issues?: Issue[]): string {
  const id = f.id ?? idOf(f.name);
  const error = errorFor(issues, f.name);
  const described = [f.hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const common = `id="${id}" name="${esc(f.name)}"${f.required ? ' required' : ''}${described ? ` aria-describedby="${described}"` : ''}${error ? ' aria-invalid="true"' : ''}${f.autocomplete ? ` autocomplete="${esc(f.autocomplete)}"` : ''}${f.attrs ? ` ${f.attrs}` : ''}`;
  const control = f.options
    ? `<select ${common}>${f.options.map((o) => `<option value="${esc(o.value)}"${o.value === f.value ? ' selected' : ''}>${esc(o.label)}</option>`).join('')}</select>`
    : f.rows
      ? `<textarea ${common} rows="${f.rows}">${esc(f.value ?? '')}</textarea>`
      : `<input type="${f.type ?? 'text'}" ${common} value="${esc(f.value ?? '')}">`;
  return `<div class="field"><label for="${id}">${esc(f.label)}</label>${f.hint ? `<p class="hint" id="${id}-hint">${esc(f.hint)}</p>` : ''}${error ? `<p class="field-error" id="${id}-error">${esc(error)}</p>` : ''}${control}</div>`;
}

/** A group of checkboxes (one name, many values) under a legend. */
export function checkboxes(
  name: string,
  legend: string,
  options: Array<{ value: string; label: string }>,
  checked: readonly string[],
  issues?: Issue[],
): string {
  const error = errorFor(issues, name);
  const boxes = options
    .map((o, i) => {
      const id = `${idOf(name)}-${i}`;
      return `<span class="check"><input type="checkbox" id="${id}" name="${esc(name)}" value="${esc(o.value)}"${checked.includes(o.value) ? ' checked' : ''}><label for="${id}">${esc(o.label)}</label></span>`;
    })
    .join(' ');
  return `<fieldset><legend>${esc(legend)}</legend>${error ? `<p class="field-error">${esc(error)}</p>` : ''}${boxes}</fieldset>`;
}

/** One checkbox with its own label. */
export function checkbox(name: string, label: string, checked: boolean): string {
  const id = idOf(name);
  return `<div class="field"><input type="checkbox" id="${id}" name="${esc(name)}" value="on"${checked ? ' checked' : ''}> <label for="${id}" class="inline-label">${esc(label)}</label></div>`;
}

/**
 * What went wrong with a submitted form, for the top of the page: the pipeline's message, and each
 * field's issue linked to its field (labels name the fields; without one, the field's name).
 */
export function failureSummary(
  f: Failure | undefined,
  labels: Record<string, string> = {},
): string {
  if (!f) return '';
  if (f.issues?.length) {
    const items = f.issues
      .map(
        (i) =>
          `<li><a href="#${idOf(i.path)}">${esc(labels[i.path] ?? i.path)}</a>: ${esc(i.message)}</li>`,
      )
      .join('');
    const lead = f.stage === 'validate' ? 'Some fields need a change:' : f.message;
    return `<div class="notice error" role="alert"><p>${esc(lead)}</p><ul>${items}</ul></div>`;
  }
  return `<div class="notice error" role="alert"><p>${esc(f.message)}</p></div>`;
}
