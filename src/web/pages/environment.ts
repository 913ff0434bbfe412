// "Where did you run this?" on the web: an optional field of the question and reply composers and of
// the "this worked" / "it did not work" report, one `name version` pair a line ("node 22.4",
// "postgres=16", "os: debian 12"), read by one zod schema into the name → version pairs the
// operations take (create_topic, reply_to_topic, confirm_answer) under the same rules, with errors
// that name the line to fix; and a post's environment as readers see it.
import { z } from 'zod';
import { environment, LIMITS } from '../../domain/fields.ts';
import type { Failure, Issue } from '../../operations/pipeline.ts';
import { field, text, type FormData } from '../forms.ts';
import { html, joinHtml, type Html } from '../template.ts';

/** The form field's name. */
export const ENVIRONMENT_FIELD = 'environment';

/** The most characters the field takes: ten full lines and a little room for spacing. */
const MAX_CHARACTERS = 1000;

/** A line: a name, then "=", ":" or spaces, then the version (which may hold spaces: "debian 12"). */
const LINE = /^([^\s=:]+)\s*[=:]?\s*(.*)$/;

/** The field's text → name → version pairs; each problem says which line and what to write. */
export const environmentText = z
  .string()
  .max(
    MAX_CHARACTERS,
    `is too long: at most ${MAX_CHARACTERS} characters (${LIMITS.environment.max} lines of a name and a version)`,
  )
  .transform((value, ctx) => {
    const pairs: Record<string, string> = {};
    const lineOf = new Map<string, number>();
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    value.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.trim();
      if (!line) return;
      const n = i + 1;
      const [, rawName = '', rawVersion = ''] = LINE.exec(line) ?? [];
      const name = rawName.toLowerCase();
      const version = rawVersion.trim();
      if (!version)
        return problem(
          `line ${n} ("${line}") has no version: write the name, a space and the version, e.g. "node 22.4"`,
        );
      const checked = environment.safeParse({ [name]: version });
      if (!checked.success) {
        const first = checked.error.issues[0]!;
        return problem(
          first.code === 'custom'
            ? `line ${n}: ${first.message}`
            : `line ${n}: the version of "${name}" ${first.message}`,
        );
      }
      const earlier = lineOf.get(name);
      if (earlier !== undefined)
        return problem(`line ${n}: "${name}" is already on line ${earlier}: give each name once`);
      lineOf.set(name, n);
      pairs[name] = version;
    });
    const count = lineOf.size;
    if (count > LIMITS.environment.max)
      problem(
        `has ${count} pairs: at most ${LIMITS.environment.max}, so remove ${count - LIMITS.environment.max} line${count - LIMITS.environment.max === 1 ? '' : 's'}`,
      );
    return pairs;
  });

/**
 * The posted environment: `value` (undefined when the field is empty or absent) for the operation's
 * `environment`, or a validation failure naming the field, which the form shows beside it.
 */
export function postedEnvironment(
  form: FormData,
): { ok: true; value?: Record<string, string> } | { ok: false; failure: Failure } {
  const checked = environmentText.safeParse(text(form, ENVIRONMENT_FIELD));
  if (checked.success)
    return {
      ok: true,
      value: Object.keys(checked.data).length ? checked.data : undefined,
    };
  const issues: Issue[] = checked.error.issues.map((i) => ({
    path: ENVIRONMENT_FIELD,
    message: i.message,
  }));
  return {
    ok: false,
    failure: {
      ok: false,
      stage: 'validate',
      code: 'invalid_argument',
      message: `Where you ran this: ${issues.map((i) => i.message).join('; ')}.`,
      issues,
    },
  };
}

/** The form without the environment's text (the operations' own fields only), for formArgs. */
export function withoutEnvironment(form: FormData): FormData {
  return Object.fromEntries(Object.entries(form).filter(([name]) => name !== ENVIRONMENT_FIELD));
}

/**
 * The field, folded under "Where did you run this? (optional)" and open when it holds something or
 * an error. `id` tells apart the fields of one page (each answer's report form has one).
 */
export function environmentField(value: string, issues?: Issue[], id?: string): Html {
  const open = value.trim() !== '' || Boolean(issues?.some((i) => i.path === ENVIRONMENT_FIELD));
  return html`<details class="environment"${open ? html` open` : ''}><summary>Where did you run this? (optional)</summary>${field(
    {
      name: ENVIRONMENT_FIELD,
      id,
      label: 'Name and version, one per line',
      hint: `What decides whether it works, e.g. "node 22.4", "postgres 16", "os debian 12": up to ${LIMITS.environment.max} lines. Others can find answers that worked where they run.`,
      rows: 3,
      value,
      attrs: html`maxlength="${MAX_CHARACTERS}" autocomplete="off" spellcheck="false"`,
    },
    issues,
  )}</details>`;
}

/** "Ran on node 22.4, postgres 16" under a post that says where it ran (nothing otherwise). */
export function environmentShown(env: Record<string, string> | undefined): Html {
  const pairs = Object.entries(env ?? {});
  if (!pairs.length) return html``;
  return html`<p class="meta ran-on">Ran on ${joinHtml(
    pairs.map(([name, version]) => html`<code>${name} ${version}</code>`),
    ', ',
  )}</p>`;
}
