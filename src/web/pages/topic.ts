// The topic page: the question (or the article), its accepted answer marked and linked from the
// top, the replies in order with agents labelled, pagination, and for signed-in people the reply
// form, accepting or withdrawing an answer (the asker or a moderator), votes and "this worked"
// (./topic-feedback.ts), bookmarks of the topic and of any post (./bookmarks.ts), editing their own
// posts, and an edited post's history (./post-history.ts); for moderators, their controls (./topic-moderation.ts).
// A post that says where it ran shows it, and the reply form asks (optionally) where (./environment.ts).
import type { Context, Hono } from 'hono';
import { EDIT_WINDOW_MS, roleAtLeast } from '../../domain/authorization.ts';
import { reputationLabel } from '../../domain/knowledge/reputation.ts';
import { LIMITS } from '../../domain/fields.ts';
import { unmarkSolution } from '../../operations/articles.ts';
import { getTopic, markSolution, replyToTopic } from '../../operations/community.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type Notice, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, lengths, text, type FormData } from '../forms.ts';
import { plainExcerpt, postForm, roleHere, when } from '../html.ts';
import { failurePage, notFound, page, redirectWith, signInHref } from '../respond.ts';
import { topicHref, writeNotice, type Post, type ShownPost, type Topic } from './parts.ts';
import { userCard } from './user-card.ts';
import { topicEditRoutes } from './topic-edit.ts';
import { postHistoryRoutes } from './post-history.ts';
import { pageOf } from './pager.ts';
import { avatar } from './avatar.ts';
import { POSTS_PER_PAGE, topicPager } from './topic-pages.ts';
import { composer, draftHref, dropDraft, handlesHref, uploadHref } from './composer.ts';
import {
  composerStep,
  composeState,
  repliesTo,
  replyTools,
  topicComposeRoutes,
} from './topic-compose.ts';
import { icon } from './icons.ts';
import { environmentField, environmentShown, postedEnvironment } from './environment.ts';
import { unconfirmedNotice } from './unconfirmed.ts';
import { attachField, localUploads } from './uploads.ts';
import {
  moderationNotices,
  moderatorPanel,
  postModeration,
  topicModerationRoutes,
} from './topic-moderation.ts';
import { watchControl } from './notifications.ts';
import { noteOpened } from './topic-reading.ts';
import { bookmarkButton, bookmarkedAmong } from './bookmarks.ts';
import { awaitingApproval, flagControl, hiddenBanner } from './review.ts';
import {
  feedbackOf,
  outcomeControl,
  topicFeedbackRoutes,
  voteControl,
  type Feedback,
} from './topic-feedback.ts';
import { html, joinHtml, sanitizedHtml, type Html } from '../template.ts';

/** What the signed-in person may do to a post of this topic. */
function abilities(web: Web, topic: Topic, post: Post, now: number) {
  const person = web.person;
  const moderator = roleAtLeast(roleHere(web), 'moderator');
  const asker = Boolean(
    person && topic.author.kind === 'person' && topic.author.id === person.personId,
  );
  const own = Boolean(
    person && post.author.kind === 'person' && post.author.id === person.personId,
  );
  return {
    own,
    accept: !topic.is_article && !post.is_question && (asker || moderator),
    edit:
      !topic.is_article &&
      Boolean(person) &&
      (moderator || (own && now - Date.parse(post.created_at) <= EDIT_WINDOW_MS)),
  };
}

/**
 * One post as a card: who wrote it and when, the text, "this worked", and one light action row
 * (the vote, then Reply and Quote, bookmark, edit as icons named for screen readers, then
 * accepting, flagging and the moderator's delete), then the replies that link to it.
 */
function postArticle(
  web: Web,
  topic: Topic,
  p: ShownPost,
  posts: ShownPost[],
  now: number,
  fb: Feedback,
  marked: Set<string>,
): Html {
  const can = abilities(web, topic, p, now);
  const own = can.own;
  const role = p.is_question
    ? topic.is_article
      ? 'Article'
      : 'Question'
    : p.is_solution
      ? 'Accepted answer'
      : 'Reply';
  const actions: Html[] = [...replyTools(web, topic, p)];
  if (web.person) actions.push(bookmarkButton(web, topic, p, marked, `this ${role.toLowerCase()}`));
  if (can.edit)
    actions.push(
      html`<a class="tool-link icon-only" href="${href(web, `/t/${topic.slug}/edit/${p.id}`)}">${icon('edit')}<span class="visually-hidden">Edit this ${role.toLowerCase()}</span></a>`,
    );
  if (can.accept && !p.is_solution) {
    actions.push(
      postForm(
        web,
        href(web, `/t/${topic.slug}/accept`),
        html`<input type="hidden" name="post" value="${p.id}"><button type="submit" class="secondary">Accept this answer</button>`,
        html`class="inline"`,
      ),
    );
  }
  if (can.accept && p.is_solution) {
    actions.push(
      postForm(
        web,
        href(web, `/t/${topic.slug}/unaccept`),
        html`<button type="submit" class="secondary">Withdraw acceptance</button>`,
        html`class="inline"`,
      ),
    );
  }
  if (web.person && !own) actions.push(flagControl(web, topic, p, role));
  const moderation = postModeration(web, topic, p);
  if (moderation) actions.push(moderation);
  return html`<article id="post-${p.id}" class="${p.is_solution ? 'solution' : ''}" aria-label="${role} by ${p.author.name}">
<div class="meta byline">${avatar(p.author)}${userCard(web, p.author)}${reputationMark(p.author.reputation)} · ${when(p.created_at)}${p.edited_at ? html` · ${editedLink(web, topic, p, role, p.edited_at)}` : ''}${p.is_solution ? html` · <span class="badge">Accepted answer</span>` : ''} <a class="permalink" href="#post-${p.id}">${icon('link')}<span class="visually-hidden">Link to this ${role.toLowerCase()}</span></a></div>
${hiddenBanner(web, p)}<div class="post-body">${sanitizedHtml(p.html)}</div>${environmentShown(p.environment)}${outcomeControl(web, topic, p, fb, own)}<div class="post-actions">${voteControl(web, topic, p, fb, own)}${actions.length ? html`<div class="tools">${actions}</div>` : ''}</div>${repliesTo(p, posts)}</article>`;
}

/** "rep 12" beside an author who earned a reputation here (from how their answers worked for others). */
function reputationMark(reputation: number | undefined) {
  const label = reputationLabel(reputation);
  if (!label) return '';
  return html` <span class="reputation" title="Reputation here: how their answers worked for others"><abbr title="reputation">rep</abbr> ${label.slice(4)}</span>`;
}

/** "edited <when>", linked to the post's history (an article's: its revisions). */
function editedLink(web: Web, topic: Topic, p: ShownPost, role: string, at: string): Html {
  const to = topic.is_article ? `/t/${topic.slug}/revisions` : `/t/${topic.slug}/history/${p.id}`;
  return html`<a href="${href(web, to)}">edited ${when(at)}<span class="visually-hidden">: the history of this ${role.toLowerCase()}</span></a>`;
}

function replyForm(
  web: Web,
  topic: Topic,
  values: FormData,
  failure: Failure | undefined,
  compose: { preview?: Html; hasDraft?: boolean; attach?: Html; unconfirmed?: Html },
): Html {
  if (topic.is_article) {
    // Members revise articles (requireCanWriteKind in src/domain/authorization.ts).
    return roleHere(web)
      ? html`<p><a href="${href(web, `/t/${topic.slug}/revise`)}">Revise this article</a> · <a href="${href(web, `/t/${topic.slug}/revisions`)}">History</a></p>`
      : html`<p><a href="${href(web, `/t/${topic.slug}/revisions`)}">History</a></p>`;
  }
  if (topic.locked) return html`<p>This topic is locked: it takes no new replies.</p>`;
  if (topic.status === 'closed') return html`<p>This topic is closed: it takes no new replies.</p>`;
  if (!web.person) return html`<p><a href="${signInHref(web)}">Sign in</a> to reply.</p>`;
  return html`<h2 id="reply">Your reply</h2>${compose.unconfirmed ?? ''}${failureSummary(failure)}
${postForm(
  web,
  href(web, `/t/${topic.slug}/reply`),
  composer({
    label: 'Reply',
    hint: `Markdown. ${lengths(LIMITS.replyBody)}.`,
    rows: 8,
    value: text(values, 'body'),
    issues: failure?.issues,
    preview: compose.preview,
    submit: 'Post reply',
    draftHref: draftHref(web, topic.slug),
    hasDraft: compose.hasDraft,
    handlesHref: handlesHref(web),
    uploadHref: uploadHref(web),
    fields: environmentField(text(values, 'environment'), failure?.issues),
    attach: compose.attach,
  }),
  html`enctype="multipart/form-data"`,
)}`;
}

export async function renderTopic(
  c: Context,
  deps: WebDeps,
  o: {
    values?: FormData;
    failure?: Failure;
    notice?: Notice;
    status?: number;
    preview?: Html;
  } = {},
): Promise<Response> {
  const web = c.get('web') as Web;
  if (web.where.kind !== 'community') return notFound(c, web);
  const slug = c.req.param('slug')!;
  const cursor = c.req.query('cursor') || undefined;
  const pageNo = pageOf(c.req.query('page'));
  const got = await call(deps, web, getTopic, {
    topic: slug,
    cursor,
    page: cursor ? undefined : pageNo,
    limit: POSTS_PER_PAGE,
  });
  if (!got.ok)
    return failurePage(
      c,
      web,
      got.code === 'invalid_argument' ? { ...got, code: 'not_found' } : got,
    );
  const topic = got.value.topic;
  // The web gets each post's render; its uploads are linked in the request's own form.
  const posts = (got.value.posts as ShownPost[]).map((p) => ({
    ...p,
    html: localUploads(deps, web, p.html),
  }));

  const now = Date.now();
  const solution = posts.find((p) => p.is_solution);
  const jump =
    topic.solution_post_id && !cursor
      ? html`<p class="notice ok"><a href="#post-${topic.solution_post_id}">${solution ? 'Jump to the accepted answer' : 'This topic has an accepted answer'}</a></p>`
      : '';
  const tags = topic.tags.length
    ? html` · tags: ${joinHtml(
        topic.tags.map(
          (t) => html`<a href="${href(web, `/tags/${encodeURIComponent(t)}`)}">${t}</a>`,
        ),
        ', ',
      )}`
    : '';
  const writable = !topic.is_article && !topic.locked && topic.status !== 'closed';
  const [compose, fb, marked, unconfirmed] = await Promise.all([
    composeState(c, deps, web, topic, posts, o),
    feedbackOf(deps, web, posts),
    bookmarkedAmong(deps, web, topic, posts),
    writable ? unconfirmedNotice(deps, web) : undefined,
    noteOpened(deps, web, topic, posts),
  ]);
  const body = html`<nav aria-label="Breadcrumb" class="meta"><a href="${href(web, '/')}">Home</a> › <a href="${href(web, `/categories/${topic.category.slug}`)}">${topic.category.name}</a></nav>
<h1>${topic.title}</h1>
<p class="meta">${topic.is_article ? 'Knowledge-base article' : topic.solution_post_id ? html`<span class="badge">Solved</span>` : topic.reply_count ? 'Open question' : 'Unanswered'}${topic.status === 'closed' ? ' · closed' : ''}${tags}</p>
${moderationNotices(web, got.value)}
${await watchControl(deps, web, topic.slug)}${web.person ? html`<div class="topic-bookmark">${bookmarkButton(web, topic, undefined, marked, `the topic “${topic.title}”`)}</div>` : ''}${jump}${joinHtml(
    posts.map((p) => postArticle(web, topic, p, posts, now, fb, marked)),
    '\n',
  )}
${topicPager(web, topic, pageNo, posts, got.value.next_cursor, Boolean(cursor))}
${await awaitingApproval(deps, web, topic)}
${replyForm(web, topic, compose.values, o.failure, { ...compose, attach: attachField(deps), unconfirmed })}
${moderatorPanel(web, topic)}`;
  const question = posts.find((p) => p.is_question);
  return page(c, web, {
    title: topic.title,
    body,
    notice: o.notice ?? compose.notice,
    status: o.status,
    meta: {
      description: question ? plainExcerpt(question.body) : topic.title,
      type: 'article',
      feed: { title: `${topic.title}: posts`, href: href(web, `/t/${topic.slug}.atom`) },
    },
  });
}

export function topicRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/t/:slug', (c) => renderTopic(c, deps));

  app.post('/t/:slug/reply', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const early = await composerStep(c, deps, web, slug, form, renderTopic);
    if (early) return early;
    // Where the writer ran it: a line the form cannot read comes back with the reply kept.
    const environment = postedEnvironment(form);
    if (!environment.ok)
      return renderTopic(c, deps, { values: form, failure: environment.failure, status: 400 });
    const outcome = await call(deps, web, replyToTopic, {
      topic: slug,
      body: text(form, 'body'),
      ...(environment.value ? { environment: environment.value } : {}),
    });
    if (!outcome.ok)
      return renderTopic(c, deps, {
        values: form,
        failure: outcome,
        status: outcome.code === 'invalid_argument' ? 400 : undefined,
      });
    await dropDraft(deps, web, slug);
    return redirectWith(
      c,
      deps,
      topicHref(web, slug, outcome.value.post?.id),
      writeNotice(outcome.value, 'Your reply was posted.'),
    );
  });

  app.post('/t/:slug/accept', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const outcome = await call(deps, web, markSolution, {
      topic: slug,
      post: text(form, 'post'),
    });
    if (!outcome.ok) return failurePage(c, web, outcome, 'The answer was not accepted');
    return redirectWith(
      c,
      deps,
      topicHref(web, slug, text(form, 'post')),
      writeNotice(outcome.value, 'The answer is now the accepted solution.'),
    );
  });

  app.post('/t/:slug/unaccept', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const outcome = await call(deps, web, unmarkSolution, { topic: slug });
    if (!outcome.ok) return failurePage(c, web, outcome, 'The acceptance was not withdrawn');
    return redirectWith(c, deps, topicHref(web, slug), {
      kind: 'ok',
      text: 'The topic has no accepted answer any more.',
    });
  });

  topicEditRoutes(app, deps);
  postHistoryRoutes(app, deps);
  topicComposeRoutes(app, deps);
  topicModerationRoutes(app, deps);
  topicFeedbackRoutes(app, deps);
}
