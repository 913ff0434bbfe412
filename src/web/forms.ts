// Forms: a posted form becomes an operation's arguments by reading the operation's own zod input
// schema (numbers, checkboxes, lists, nested objects as "a.b" names), so the pipeline validates it
// exactly as it validates an MCP call and its messages come back per field. And the field markup:
// a visible label for every control, hints and errors tied to it with aria-describedby.
import type { z } from 'zod';
import type { Failure, Issue } from '../operations/pipeline.ts';
import { esc } from './html.ts';

export type FormData = Record<string, string | File | (string | File)[]>;

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
};

/** The schema under optional/default/nullable/pipe wrappers. */
function core(schema: z.ZodType): Def {
  let s = schema as unknown as { _zod: { def: Def } };
  for (;;) {
    const d = s._zod.def;
    if (
      d.innerType &&
      ['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch'].includes(d.type)
    )
      s = d.innerType as never;
    else if (d.type === 'pipe' && d.in) s = d.in as never;
    else return d;
  }
}

/** A field's values; only the form's own fields count (never a name inherited from Object.prototype). */
function values(form: FormData, name: string): string[] {
  const v = Object.hasOwn(form, name) ? form[name] : undefined;
  const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
  return list.filter((x): x is string => typeof x === 'string');
}

function coerce(schema: z.ZodType, form: FormData, name: string): unknown {
  const d = core(schema);
  if (d.type === 'object' && d.shape) {
    const out: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(d.shape)) {
      const v = coerce(s, form, `${name}.${k}`);
      if (v !== undefined) out[k] = v;
    }
    return Object.keys(out).length || !schema.safeParse(undefined).success ? out : undefined;
  }
  const given = values(form, name);
  const optional = schema.safeParse(undefined).success;
  if (d.type === 'array') {
    const items = given.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
    return items.length || !optional ? items : undefined;
  }
  const v = given[0];
  if (v === undefined || (v.trim() === '' && optional))
    return d.type === 'boolean' && !optional ? false : undefined;
  if (d.type === 'number') return v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  if (d.type === 'boolean') return v === 'on' || v === 'true' || v === '1';
  return v;
}

/** The operation's arguments from a posted form, shaped by its input schema (unknown fields are dropped). */
export function formArgs(input: z.ZodObject, form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(input.shape as Record<string, z.ZodType>)) {
    const v = coerce(s, form, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
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

/** What went wrong with a submitted form: the pipeline's message, with each field's issue linked. */
export function failureSummary(f: Failure | undefined): string {
  if (!f) return '';
  if (f.stage === 'validate' && f.issues?.length) {
    const items = f.issues
      .map((i) => `<li><a href="#${idOf(i.path)}">${esc(i.path)}</a>: ${esc(i.message)}</li>`)
      .join('');
    return `<div class="notice error" role="alert"><p>Some fields need a change:</p><ul>${items}</ul></div>`;
  }
  return `<div class="notice error" role="alert"><p>${esc(f.message)}</p></div>`;
}
