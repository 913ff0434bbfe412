// Changing what was written: editing one's own post within the edit window (edit_post; moderators
// any post), revising a knowledge-base article (revise_article, every revision kept) and reading an
// article's history (list_article_revisions), each revision with the words it changed.
import type { Context, Hono } from 'hono';
import { LIMITS } from '../../domain/fields.ts';
import { listArticleRevisions, reviseArticle } from '../../operations/articles.ts';
import { getTopic } from '../../operations/community.ts';
import { editPost } from '../../operations/people.ts';
import type { OutputOf } from '../../operations/operation.ts';
import type { Rendered } from '../../operations/present.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';
import { topicHref, writeNotice, type Post, type Topic } from './parts.ts';
import { DIFF_LEGEND, versionSection } from './post-history.ts';
import { html, sanitizedHtml, type Html } from '../template.ts';

/** The topic and one of its posts, paging through get_topic until the post turns up. */
async function topicWithPost(
  deps: WebDeps,
  web: Web,
  slug: string,
  postId: string,
): Promise<{ ok: true; topic: Topic; post: Post } | { ok: false; failure: Failure }> {
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const got = await call(deps, web, getTopic, { topic: slug, cursor, limit: 100 });
    if (!got.ok) return { ok: false, failure: got };
    const post = got.value.posts.find((p) => p.id === postId);
    if (post) return { ok: true, topic: got.value.topic, post };
    cursor = got.value.next_cursor ?? undefined;
    if (!cursor) break;
  }
  return {
    ok: false,
    failure: {
      ok: false,
      stage: 'call',
      code: 'not_found',
      message: 'There is no such post in this topic.',
    },
  };
}

function editForm(web: Web, topic: Topic, post: Post, values: FormData, failure?: Failure): Html {
  const title = post.is_question
    ? field(
        {
          name: 'title',
          label: 'Title',
          value: text(values, 'title') || topic.title,
          required: true,
        },
        failure?.issues,
      )
    : '';
  return html`<h1>Edit your ${post.is_question ? 'question' : 'reply'}</h1><p class="meta">In <a href="${topicHref(web, topic.slug)}">${topic.title}</a></p>${failureSummary(failure)}
${postForm(
  web,
  href(web, `/t/${topic.slug}/edit/${post.id}`),
  html`${title}${field({ name: 'body', label: 'Body', hint: 'Markdown.', rows: 12, value: text(values, 'body') || post.body, required: true }, failure?.issues)}
<div class="actions"><button type="submit">Save changes</button> <a class="button secondary" href="${topicHref(web, topic.slug, post.id)}">Cancel</a></div>`,
)}`;
}

function reviseForm(
  web: Web,
  topic: Topic,
  body: string,
  values: FormData,
  failure?: Failure,
): Html {
  return html`<h1>Revise “${topic.title}”</h1><p>Every revision is kept; the approval policy for articles applies.</p>${failureSummary(failure)}
${postForm(
  web,
  href(web, `/t/${topic.slug}/revise`),
  html`${field({ name: 'title', label: 'Title', value: text(values, 'title') || topic.title, required: true }, failure?.issues)}
${field({ name: 'body', label: 'Article', hint: 'Markdown, the whole article.', rows: 16, value: text(values, 'body') || body, required: true }, failure?.issues)}
${field({ name: 'tags', label: 'Tags', hint: `Up to ${LIMITS.tags.max}, separated by commas.`, value: text(values, 'tags') || topic.tags.join(', ') }, failure?.issues)}
<div class="actions"><button type="submit">Save revision</button></div>`,
)}`;
}

export function topicEditRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const edit = async (c: Context<WebEnv>, values: FormData = {}, failure?: Failure) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const found = await topicWithPost(deps, web, c.req.param('slug')!, c.req.param('post')!);
    if (!found.ok) return failurePage(c, web, found.failure);
    return page(c, web, {
      title: 'Edit',
      body: editForm(web, found.topic, found.post, values, failure),
      status: failure ? 400 : 200,
    });
  };
  app.get('/t/:slug/edit/:post', (c) => needsPerson(c, c.get('web')) ?? edit(c));
  app.post('/t/:slug/edit/:post', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const args = {
      ...formArgs(editPost, form),
      post: c.req.param('post'),
    };
    const outcome = await call(deps, web, editPost, args);
    if (!outcome.ok)
      return outcome.code === 'invalid_argument'
        ? edit(c, form, outcome)
        : failurePage(c, web, outcome, 'The post was not changed');
    return redirectWith(c, deps, topicHref(web, c.req.param('slug'), c.req.param('post')), {
      kind: 'ok',
      text: 'Your changes were saved.',
    });
  });

  const revise = async (c: Context<WebEnv>, values: FormData = {}, failure?: Failure) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const got = await call(deps, web, getTopic, { topic: c.req.param('slug')!, limit: 1 });
    if (!got.ok) return failurePage(c, web, got);
    if (!got.value.topic.is_article)
      return notFound(
        c,
        web,
        'Only knowledge-base articles are revised; edit a post of a topic instead.',
      );
    return page(c, web, {
      title: 'Revise',
      body: reviseForm(web, got.value.topic, got.value.posts[0]?.body ?? '', values, failure),
      status: failure ? 400 : 200,
    });
  };
  app.get('/t/:slug/revise', (c) => needsPerson(c, c.get('web')) ?? revise(c));
  app.post('/t/:slug/revise', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const args = {
      ...formArgs(reviseArticle, form),
      article: c.req.param('slug'),
    };
    const outcome = await call(deps, web, reviseArticle, args);
    if (!outcome.ok)
      return outcome.code === 'invalid_argument'
        ? revise(c, form, outcome)
        : failurePage(c, web, outcome, 'The article was not revised');
    return redirectWith(
      c,
      deps,
      topicHref(web, c.req.param('slug')),
      writeNotice(outcome.value, 'The article was revised.'),
    );
  });

  app.get('/t/:slug/revisions', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const slug = c.req.param('slug');
    const got = await call(deps, web, listArticleRevisions, { article: slug });
    if (!got.ok) return failurePage(c, web, got);
    // Each revision carries its stored render: the web shows HTML (Caller.showsHtml).
    const revisions = got.value.revisions as (OutputOf<
      typeof listArticleRevisions
    >['revisions'][number] &
      Rendered)[];
    const items = revisions
      .map((r, i) =>
        versionSection(
          web,
          r,
          revisions[i - 1],
          'revision',
          html`<div class="post-body preview">${sanitizedHtml(r.html)}</div>`,
        ),
      )
      .reverse();
    return page(c, web, {
      title: 'History',
      body: html`<h1>History of the article</h1><p><a href="${topicHref(web, slug)}">Back to the article</a></p>${revisions.length > 1 ? DIFF_LEGEND : ''}${items.length ? items : html`<p>No revisions.</p>`}`,
    });
  });
}
