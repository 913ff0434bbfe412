// Categories, for administrators: each in its order with its kind, approval policy and topic count;
// change one (name, slug, description, kind, approval policy, place), delete one (naming where its
// topics go when it holds any), add one. Every form runs the catalogue's category operations.
import type { Context, Hono } from 'hono';
import { createCategory, deleteCategory, updateCategory } from '../../operations/categories.ts';
import { listCategories } from '../../operations/community.ts';
import type { Operation, OutputOf } from '../../operations/operation.ts';
import type { z } from 'zod';
import type { Failure } from '../../operations/pipeline.ts';
import { getCommunitySettings } from '../../operations/web-communities.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { failurePage, page, redirectWith } from '../respond.ts';
import { adminGate, adminNav } from './admin.ts';
import { html, type Html } from '../template.ts';

type Category = OutputOf<typeof listCategories>['categories'][number];

const KINDS = [
  { value: 'discussion', label: 'Discussion (questions and answers)' },
  { value: 'knowledge_base', label: 'Knowledge base (articles)' },
];
const APPROVALS = [
  { value: 'community', label: 'As the community’s approval policies say' },
  { value: 'auto', label: 'New topics are published at once' },
  { value: 'approval', label: 'New topics wait for a moderator' },
];

/** The fields of a category's form; `key` keeps the ids of each form on the page apart. */
function categoryFields(key: string, c: Partial<Category>, failure?: Failure): Html {
  const issues = failure?.issues;
  const id = (name: string) => `f-${key}-${name}`;
  return html`${field({ name: 'name', id: id('name'), label: 'Name', value: c.name ?? '', required: true }, issues)}
${field({ name: 'slug', id: id('slug'), label: 'Slug', hint: 'Its address, /categories/<slug>: a-z, 0-9 and "-". Empty: made from the name.', value: c.slug ?? '' }, issues)}
${field({ name: 'description', id: id('description'), label: 'Description', rows: 2, value: c.description ?? '' }, issues)}
${field({ name: 'kind', id: id('kind'), label: 'Kind', hint: 'Changes only while the category holds no topic.', value: c.kind ?? 'discussion', options: KINDS }, issues)}
${field({ name: 'approval_policy', id: id('approval'), label: 'New topics', value: c.approval_policy ?? 'community', options: APPROVALS }, issues)}
${field({ name: 'position', id: id('position'), label: 'Place in the order', hint: '1 is listed first.', type: 'number', value: c.position ? String(c.position) : '' }, issues)}`;
}

function categorySection(web: Web, c: Category, all: Category[]): Html {
  const targets = all.filter((o) => o.id !== c.id && o.kind === c.kind);
  const moveTo = c.topic_count
    ? field({
        name: 'move_to',
        id: `f-${c.id}-move`,
        label: `Move its ${c.topic_count} topic${c.topic_count === 1 ? '' : 's'} to`,
        options: targets.map((o) => ({ value: o.slug, label: o.name })),
      })
    : '';
  const deletable = c.topic_count === 0 || targets.length > 0;
  return html`<section class="queued" aria-labelledby="cat-${c.id}"><h2 id="cat-${c.id}">${c.position}. ${c.name}</h2>
<p class="meta"><code>${c.slug}</code> · ${c.kind === 'knowledge_base' ? 'knowledge base' : 'discussion'} · new topics: ${c.approval_policy} · ${c.topic_count} topic${c.topic_count === 1 ? '' : 's'}</p>
<details><summary>Change ${c.name}</summary>
${postForm(web, href(web, '/admin/categories/update'), html`<input type="hidden" name="category" value="${c.id}">${categoryFields(c.id, c)}<div class="actions"><button type="submit">Save ${c.name}</button></div>`)}</details>
<details><summary>Delete ${c.name}</summary>
${
  deletable
    ? postForm(
        web,
        href(web, '/admin/categories/delete'),
        html`<input type="hidden" name="category" value="${c.id}">${moveTo}<div class="actions"><button type="submit" class="danger">Delete ${c.name}</button></div>`,
      )
    : html`<p>It holds topics and no other ${c.kind} category can take them: add one first.</p>`
}</details></section>`;
}

async function categoriesPage(
  c: Context<WebEnv>,
  deps: WebDeps,
  o: { failure?: Failure; values?: FormData } = {},
): Promise<Response> {
  const web = c.get('web');
  // The same check every admin operation makes: administrators only.
  const allowed = await call(deps, web, getCommunitySettings, {});
  if (!allowed.ok) return failurePage(c, web, allowed);
  const listed = await call(deps, web, listCategories, {});
  if (!listed.ok) return failurePage(c, web, listed);
  const all = listed.value.categories;
  const v = o.values ?? {};
  const body = html`<h1>Categories</h1>${adminNav(web, '/admin/categories')}${failureSummary(o.failure)}
${all.length ? all.map((cat) => categorySection(web, cat, all)) : html`<p>No categories yet: add one, or nobody can ask a question.</p>`}
<h2 id="new">Add a category</h2>
${postForm(
  web,
  href(web, '/admin/categories'),
  html`${categoryFields(
    'new',
    {
      name: text(v, 'name'),
      slug: text(v, 'slug'),
      description: text(v, 'description'),
      kind: (text(v, 'kind') || 'discussion') as Category['kind'],
      approval_policy: (text(v, 'approval_policy') || 'community') as Category['approval_policy'],
    },
    o.failure,
  )}<div class="actions"><button type="submit">Add category</button></div>`,
)}`;
  return page(c, web, { title: 'Categories', body, status: o.failure ? 400 : 200 });
}

export function categoryAdminRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/admin/categories', (c) => adminGate(c) ?? categoriesPage(c, deps));

  const submit = <O extends z.ZodObject>(
    path: string,
    op: Operation<z.ZodObject, O>,
    done: (value: z.output<O>) => string,
  ) =>
    app.post(path, async (c) => {
      const gate = adminGate(c);
      if (gate) return gate;
      const web = c.get('web');
      const form = (await c.req.parseBody({ all: true })) as FormData;
      const result = await call(deps, web, op, formArgs(op, form));
      if (!result.ok)
        return ['invalid_argument', 'conflict', 'not_found'].includes(result.code)
          ? categoriesPage(c, deps, {
              failure: result,
              values: path === '/admin/categories' ? form : undefined,
            })
          : failurePage(c, web, result);
      return redirectWith(c, deps, href(web, '/admin/categories'), {
        kind: 'ok',
        text: done(result.value),
      });
    });

  submit('/admin/categories', createCategory, (v) => `Category "${v.name}" added.`);
  submit('/admin/categories/update', updateCategory, (v) => `Category "${v.name}" saved.`);
  submit('/admin/categories/delete', deleteCategory, (v) =>
    v.moved_to
      ? `Category "${v.deleted}" deleted; its ${v.moved_topics} topic${v.moved_topics === 1 ? '' : 's'} moved to "${v.moved_to}".`
      : `Category "${v.deleted}" deleted.`,
  );
}
