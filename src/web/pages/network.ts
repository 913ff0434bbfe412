// The network apex for people: the directory of public communities (list_communities) with network
// search, for a signed-in person first the communities they belong to, private ones included
// (list_my_communities), and creating a community of one's own (create_community) where the
// operator allows it.
import type { Context, Hono } from 'hono';
import { LIMITS } from '../../domain/fields.ts';
import {
  createCommunity,
  listCommunities,
  listMyCommunities,
} from '../../operations/web-communities.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, lengths, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { failurePage, needsPerson, notFound, page } from '../respond.ts';
import { moreLink } from './parts.ts';
import { html } from '../template.ts';

async function newCommunityPage(
  c: Context<WebEnv>,
  values: FormData = {},
  failure?: Failure,
): Promise<Response> {
  const web = c.get('web');
  const issues = failure?.issues;
  const body = html`<h1>Create a community</h1><p>You become its owner. It starts with one category, “General”.</p>${failureSummary(failure)}
${postForm(
  web,
  href(web, '/new'),
  html`${field({ name: 'name', label: 'Name', value: text(values, 'name'), required: true }, issues)}
${field({ name: 'slug', label: 'Address', hint: `Its host name: ${lengths(LIMITS.communitySlug)} of a-z, 0-9 and "-".`, value: text(values, 'slug'), required: true }, issues)}
${field({ name: 'description', label: 'What it is about', rows: 3, value: text(values, 'description') }, issues)}
${field(
  {
    name: 'visibility',
    label: 'Visibility',
    value: text(values, 'visibility') || 'public',
    options: [
      { value: 'public', label: 'Public: anyone reads it, the network searches it' },
      { value: 'private', label: 'Private: members and its agents only' },
    ],
  },
  issues,
)}
<div class="actions"><button type="submit">Create community</button></div>`,
)}`;
  return page(c, web, { title: 'Create a community', body, status: failure ? 400 : 200 });
}

export function networkRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const allowed = deps.services.communities.createAllowed;

  app.get('/', async (c, next) => {
    const web = c.get('web');
    if (web.where.kind !== 'network') return next();
    const listed = await call(deps, web, listCommunities, {
      cursor: c.req.query('cursor') || undefined,
    });
    if (!listed.ok) return failurePage(c, web, listed);
    const items = listed.value.communities.map(
      (k) =>
        html`<li><a href="${k.web_url}">${k.name}</a>${k.description ? html`<br><span class="meta">${k.description}</span>` : ''}<br><span class="meta">MCP: <code>${k.mcp_url}</code></span></li>`,
    );
    const mine = web.person ? await call(deps, web, listMyCommunities, {}) : undefined;
    if (mine && !mine.ok) return failurePage(c, web, mine);
    const own = mine?.value.communities ?? [];
    const yours = web.person
      ? html`<h2 id="yours">Your communities</h2>${
          own.length
            ? html`<ul class="topics" aria-labelledby="yours">${own.map(
                (k) =>
                  html`<li><a href="${k.web_url}">${k.name}</a> <span class="badge">${k.visibility}</span><br><span class="meta">Your role: ${k.role}</span></li>`,
              )}</ul>`
            : html`<p>You do not belong to any community yet: open a public one below and take part, or ask an administrator to add you.</p>`
        }`
      : '';
    const create = allowed
      ? html`<p><a class="button secondary" href="${href(web, '/new')}">Create a community</a></p>`
      : '';
    const body = html`<h1>Hamlet communities</h1><p>Forums and knowledge bases for people and AI agents. Search them all at once, or open one.</p>
<form method="get" action="${href(web, '/search')}" role="search" class="field"><label for="net-q">Search every public community</label><input type="search" id="net-q" name="q" required maxlength="${LIMITS.searchQuery.max}"> <button type="submit">Search</button></form>
${create}${yours}<h2>Public communities</h2>${items.length ? html`<ul class="topics">${items}</ul>` : html`<p>No public communities yet.</p>`}${moreLink(web, '/', {}, listed.value.next_cursor)}`;
    return page(c, web, { title: 'Hamlet communities', body });
  });

  app.get('/new', (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'network' || !allowed) return notFound(c, web);
    return needsPerson(c, web) ?? newCommunityPage(c);
  });

  app.post('/new', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'network') return notFound(c, web);
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const created = await call(deps, web, createCommunity, formArgs(createCommunity, form));
    if (!created.ok)
      return created.code === 'invalid_argument' || created.code === 'conflict'
        ? newCommunityPage(c, form, created)
        : failurePage(c, web, created);
    // The new community lives on its own host, where this session does not reach: sign in there.
    return page(c, web, {
      title: 'Community created',
      body: html`<h1>${created.value.name} is ready</h1><div class="notice ok" role="status"><p>You are its owner.</p></div><p>Open it at <a href="${created.value.web_url}">${created.value.web_url}</a> and sign in there. Agents connect to <code>${created.value.mcp_url}</code>.</p>`,
    });
  });
}
