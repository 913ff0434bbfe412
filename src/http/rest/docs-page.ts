// The API reference page at /api/docs: the server's OpenAPI document rendered here as one HTML page
// (operations by tag, their parameters, bodies and answers, the webhook payloads), with no script
// and nothing loaded from anywhere else, so it works offline and costs no renderer package. The
// path form (/c/<slug>/api/docs) renders its community's document, and every link on the page is
// relative, so it stays in the form it was opened in. Schemas are shown as nested fields, to a depth
// of four, in collapsed sections.
import type { Context, Hono } from 'hono';
import { BoundedCache } from '../../bounded-cache.ts';
import { html, joinHtml, markupOf, type Html } from '../../web/template.ts';

/** The page loads nothing: no script, no style sheet or font from elsewhere. */
export const DOCS_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

// The OpenAPI document as JSON (this server's own, made by src/http/rest/openapi.ts): the page reads
// whichever of its fields a schema has, so they are typed at their use.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document's JSON
type Doc = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON Schema's JSON
type Schema = Record<string, any>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const MAX_DEPTH = 4;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1a1a1a}
code,pre{font:13px ui-monospace,monospace}h2{margin-top:2rem;border-bottom:1px solid #ccc}
section.op{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.m{display:inline-block;min-width:4rem;font-weight:bold;text-transform:uppercase}
.get{color:#05603a}.post{color:#1d4ed8}.put,.patch{color:#92400e}.delete{color:#b91c1c}
table{border-collapse:collapse;width:100%}td,th{border-top:1px solid #eee;padding:.25rem;text-align:left;vertical-align:top}
ul.f{margin:.2rem 0;padding-left:1.2rem}.t{color:#555}.req{color:#b91c1c}`;

/** The schema `$ref` points at (within the document), or the schema itself. */
function resolved(doc: Doc, schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) {
    const name = String(s.$ref).replace('#/components/schemas/', '');
    s = doc.components?.schemas?.[name];
  }
  return s;
}

/** A schema's type in a few words: `string`, `integer 1–100`, `"a" | "b"`, `array of object`. */
function typeOf(doc: Doc, schema: Schema | undefined): string {
  const s = resolved(doc, schema);
  if (!s) return 'any';
  if (s.enum) return s.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map((a: Schema) => typeOf(doc, a)).join(' | ');
  const type = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'object');
  if (type === 'array') return `array of ${typeOf(doc, s.items)}`;
  const range =
    s.minimum !== undefined || s.maximum !== undefined
      ? ` ${s.minimum ?? ''}–${s.maximum ?? ''}`
      : s.maxLength !== undefined
        ? `, ${s.minLength ?? 0}–${s.maxLength} characters`
        : '';
  return `${type}${range}`;
}

/** An object's fields as a nested list (arrays of objects show their items' fields). */
function fields(doc: Doc, schema: Schema | undefined, depth = 0): Html {
  let s = resolved(doc, schema);
  if (s?.type === 'array') s = resolved(doc, s.items);
  const alts = s?.anyOf ?? s?.oneOf;
  if (alts) {
    const objects = alts.map((a: Schema) => resolved(doc, a)).filter((a: Schema) => a?.properties);
    if (objects.length === 1) s = objects[0];
  }
  if (!s?.properties || depth >= MAX_DEPTH) return html``;
  const required = new Set<string>(s.required ?? []);
  const items = Object.entries(s.properties as Record<string, Schema>).map(
    ([name, field]) =>
      html`<li><code>${name}</code> <span class="t">${typeOf(doc, field)}</span>${required.has(name) ? html` <span class="req">required</span>` : ''}${field.description ? html` — ${field.description}` : ''}${fields(doc, field, depth + 1)}</li>`,
  );
  return html`<ul class="f">${items}</ul>`;
}

function body(
  doc: Doc,
  title: string,
  content: Record<string, { schema?: Schema }> | undefined,
): Html {
  if (!content) return html``;
  return joinHtml(
    Object.entries(content).map(
      ([type, { schema }]) =>
        html`<details><summary>${title} <code>${type}</code>: ${typeOf(doc, schema)}</summary>${fields(doc, schema)}</details>`,
    ),
    '',
  );
}

function operation(doc: Doc, path: string, method: string, op: Doc): Html {
  const params = (op.parameters ?? []) as Schema[];
  const table = params.length
    ? html`<table><tr><th>parameter</th><th>in</th><th>type</th><th>what</th></tr>${params.map(
        (p) =>
          html`<tr><td><code>${p.name}</code>${p.required ? html` <span class="req">required</span>` : ''}</td><td>${p.in}</td><td class="t">${typeOf(doc, p.schema)}</td><td>${p.description ?? p.schema?.description ?? ''}</td></tr>`,
      )}</table>`
    : '';
  const open = (op.security ?? []).some((s: object) => Object.keys(s).length === 0);
  const answers = Object.entries((op.responses ?? {}) as Record<string, Doc>).map(
    ([code, r]) =>
      html`<li><code>${code}</code> ${r.description ?? ''}${code.startsWith('2') ? body(doc, 'body', r.content) : ''}</li>`,
  );
  return html`<section class="op" id="${op.operationId}"><h3><span class="m ${method}">${method}</span> <code>${path}</code></h3><p><strong>${op.summary ?? ''}</strong>${open ? ' (no credential needed on a public community)' : ''}</p><p>${op.description ?? ''}</p>${table}${body(doc, 'Request body', op.requestBody?.content)}<p>Answers:</p><ul>${answers}</ul></section>`;
}

/** The whole page for one OpenAPI document. */
export function docsPage(doc: Doc): string {
  const byTag = new Map<string, Html[]>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Doc>))
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = (op.tags?.[0] as string | undefined) ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation(doc, path, method, op)]);
    }
  const schemes = Object.entries((doc.components?.securitySchemes ?? {}) as Record<string, Doc>);
  const hooks = Object.entries((doc.webhooks ?? {}) as Record<string, Doc>);
  const server = doc.servers?.[0]?.url as string | undefined;
  const page = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${doc.info?.title ?? 'API'} reference</title><style>${STYLE}</style></head><body><h1>${doc.info?.title ?? 'API'} <small>${doc.info?.version ?? ''}</small></h1><p>${doc.info?.description ?? ''}</p>${server ? html`<p>Server: <code>${server}</code></p>` : ''}<p>The OpenAPI 3.1 document: <a href="v1/openapi.json">v1/openapi.json</a> (for code generators and other viewers).</p><h2>Credentials</h2><ul>${schemes.map(([name, s]) => html`<li><code>${name}</code>: ${s.description ?? s.type}</li>`)}</ul><nav><h2>Operations</h2><ul>${[...byTag.keys()].map((tag) => html`<li><a href="#tag-${tag}">${tag}</a></li>`)}${hooks.length ? html`<li><a href="#webhooks">webhooks</a></li>` : ''}</ul></nav>${[...byTag].map(([tag, ops]) => html`<h2 id="tag-${tag}">${tag}</h2>${ops}`)}${hooks.length ? html`<h2 id="webhooks">Webhooks</h2>${hooks.map(([name, item]) => html`<section class="op" id="webhook-${name}"><h3><code>${name}</code></h3><p>${item.post?.description ?? item.post?.summary ?? ''}</p>${body(doc, 'Payload', item.post?.requestBody?.content)}</section>`)}` : ''}</body></html>`;
  return markupOf(page);
}

/** Pages kept rendered: one per server and server URL (a page is about 1 MB of HTML). */
const MAX_PAGES = 32;

/** Serves /api/docs: `documentOf` gives the request's document (undefined: not found here). */
export function mountDocsPage(
  app: Hono,
  documentOf: (c: Context) => Promise<Doc | undefined>,
): void {
  const pages = new BoundedCache<string, string>({ maxEntries: MAX_PAGES });
  app.get('/api/docs', async (c) => {
    const doc = await documentOf(c);
    if (!doc) return c.notFound();
    const key = `${doc.info?.title} ${doc.servers?.[0]?.url}`;
    let page = pages.get(key);
    if (page === undefined) pages.set(key, (page = docsPage(doc)));
    return c.html(page, 200, { 'content-security-policy': DOCS_CSP });
  });
}
