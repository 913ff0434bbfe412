// The search page, `/search?q=…`: on a community it is search_community with the same filters
// (category, tags, solved only, kinds, author, dates), on the apex search_network across public
// communities. A result holds every word searched for; when no topic holds them all, the page
// searches for any of them and says so (`words=any` asks for that at once). Matched words are
// highlighted; the next page keeps the filters.
import type { Hono } from 'hono';
import { LIMITS, SOURCE_TYPES } from '../../domain/fields.ts';
import { listCategories } from '../../operations/community.ts';
import { searchCommunityPage, searchNetworkPage } from '../../operations/search-page.ts';
import type { OutputOf } from '../../operations/operation.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import {
  checkbox,
  checkboxes,
  failureSummary,
  field,
  formArgs,
  text,
  type FormData,
} from '../forms.ts';
import { plural } from '../html.ts';
import { failurePage, page } from '../respond.ts';
import { moreLink, resultList } from './parts.ts';
import { html, type Html } from '../template.ts';

type Categories = OutputOf<typeof listCategories>['categories'];

/** What the person sees each field called (the error summary names fields by these). */
const FIELD_LABELS: Record<string, string> = {
  q: 'Search for',
  category: 'Category',
  tags: 'Tags',
  solved_only: 'Only solved topics',
  source_types: 'Kinds of result',
  author: 'Author',
  since: 'Since',
  until: 'Before',
  sort: 'Sort by',
};

const FILTERS = [
  'category',
  'tags',
  'solved_only',
  'source_types',
  'author',
  'since',
  'until',
] as const;

/** The query string as the operation's form: `q` is the query, the rest are its filters. */
function asForm(query: Record<string, string[]>): FormData {
  const form: FormData = { query: query.q ?? [] };
  // A filter left empty in the form (`?author=`) is not set: it neither filters nor opens the panel.
  for (const f of FILTERS) {
    const given = (query[f] ?? []).filter((v) => v.trim() !== '');
    if (given.length) form[`filters.${f}`] = given;
  }
  // The order is not a filter: it is set apart, and leaves the panel closed.
  const sort = (query.sort ?? []).filter((v) => v.trim() !== '');
  if (sort.length) form['filters.sort'] = sort;
  if (query.cursor) form['filters.cursor'] = query.cursor;
  if (query.community) form.communities = query.community;
  if (query.words?.[0] === 'any') form.words = 'any';
  return form;
}

/**
 * A failure with its issues named by the form's fields (`filters.tags.1` is the Tags field, `query`
 * the search box), so the summary names what the person sees and links to the field itself.
 */
function inFormTerms(failure: Failure): Failure {
  return {
    ...failure,
    issues: failure.issues?.map((i) => ({
      ...i,
      path: i.path
        .replace(/^filters\./, '')
        .replace(/^query$/, 'q')
        .replace(/\.\d+$/, ''),
    })),
  };
}

function searchForm(
  web: Web,
  form: FormData,
  categories: Categories | undefined,
  failure?: Failure,
): Html {
  const issues = failure?.issues;
  const v = (name: string) => text(form, `filters.${name}`);
  const categoryField = categories
    ? field(
        {
          name: 'category',
          label: 'Category',
          value: v('category'),
          options: [
            { value: '', label: 'Any category' },
            ...categories.map((k) => ({ value: k.slug, label: k.name })),
          ],
        },
        issues,
      )
    : '';
  const kinds = (
    form['filters.source_types']
      ? ([] as string[]).concat(form['filters.source_types'] as string[])
      : []
  ) as string[];
  return html`<form method="get" action="${href(web, '/search')}" role="search">
${field({ name: 'q', label: 'Search for', type: 'search', value: text(form, 'query'), required: true, attrs: html`maxlength="${LIMITS.searchQuery.max}"` }, issues)}
<details${FILTERS.some((f) => form[`filters.${f}`]) ? ' open' : ''}><summary>Filters</summary>
${categoryField}
${field({ name: 'tags', label: 'Tags', hint: 'Topics with all of these tags, separated by commas.', value: v('tags') }, issues)}
${checkbox('solved_only', 'Only solved topics', v('solved_only') === 'on' || v('solved_only') === 'true')}
${checkboxes(
  'source_types',
  'Kinds of result',
  SOURCE_TYPES.map((s) => ({
    value: s,
    label: s === 'topic' ? 'Questions' : s === 'post' ? 'Replies' : 'Articles',
  })),
  kinds,
  issues,
)}
${field({ name: 'author', label: 'Author', hint: 'A name or the start of one, or an @handle.', value: v('author') }, issues)}
${field({ name: 'since', label: 'Since', type: 'date', value: v('since') }, issues)}
${field({ name: 'until', label: 'Before', type: 'date', value: v('until') }, issues)}
</details>
${field(
  {
    name: 'sort',
    label: 'Sort by',
    value: v('sort') || 'relevance',
    options: [
      { value: 'relevance', label: 'Best match' },
      { value: 'newest', label: 'Newest' },
    ],
  },
  issues,
)}
<div class="actions"><button type="submit">Search</button></div></form>`;
}

export function searchRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/search', async (c) => {
    const web = c.get('web');
    const queries = c.req.queries();
    const form = asForm(queries);
    const inCommunity = web.where.kind === 'community';
    let categories: Categories | undefined;
    if (inCommunity) {
      const listed = await call(deps, web, listCategories, {});
      if (!listed.ok) return failurePage(c, web, listed);
      categories = listed.value.categories;
    }
    const title = inCommunity ? 'Search' : 'Search every public community';
    if (!text(form, 'query').trim())
      return page(c, web, {
        title,
        body: html`<h1>${title}</h1>${searchForm(web, form, categories)}`,
      });

    const op = inCommunity ? searchCommunityPage : searchNetworkPage;
    let found = await call(deps, web, op, formArgs(op, form));
    // No topic has every word: any of them, said so.
    const anyAsked = text(form, 'words') === 'any';
    let fellBack = false;
    if (found.ok && found.value.total === 0 && !anyAsked && !queries.cursor) {
      const any = await call(deps, web, op, formArgs(op, { ...form, words: 'any' }));
      if (any.ok && any.value.total > 0) [found, fellBack] = [any, true];
    }
    if (!found.ok) {
      if (found.code !== 'invalid_argument') return failurePage(c, web, found);
      const failure = inFormTerms(found);
      return page(c, web, {
        title,
        status: 400,
        body: html`<h1>${title}</h1>${failureSummary(failure, FIELD_LABELS)}${searchForm(web, form, categories, failure)}`,
      });
    }
    // Results name their category by slug: shown by its name, as the filter lists it.
    const names = new Map((categories ?? []).map((k) => [k.slug, k.name]));
    const results = found.value.results.map((r) => ({
      ...r,
      category: names.get(r.category) ?? r.category,
    }));
    const params: Record<string, string | undefined> = { q: text(form, 'query') };
    for (const f of [...FILTERS, 'sort'] as const) params[f] = queries[f]?.join(',');
    if (anyAsked || fellBack) params.words = 'any';
    const q = text(form, 'query');
    const status = fellBack
      ? html`No topic has all of the words “${q}”: ${plural(found.value.total, 'topic')} with some of them.`
      : html`${plural(found.value.total, 'topic')} found for “${q}”${anyAsked ? ' (any of the words)' : ''}.`;
    const body = html`<h1>${title}</h1>${searchForm(web, form, categories)}
<h2 id="results">Results</h2><p role="status">${status}</p>
${results.length ? resultList(web, results) : html`<p>Nothing matched. Try fewer or other words, or remove a filter.</p>`}
${moreLink(web, '/search', params, found.value.next_cursor, 'More results')}`;
    return page(c, web, { title: `${text(form, 'query')} · Search`, body });
  });
}
