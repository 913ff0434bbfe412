// Asking a question, in the composer replies and articles use (./composer.ts: Preview, the draft kept
// on the server, so a reload or another device brings the question back, the toolbar, the @handle
// hint, images dropped or pasted). While the title is typed, a small script lists similar questions
// (suggest_answer, accepted answers first); without JavaScript the "Check for similar questions"
// button renders the same list on the server before anything is posted. Posting is create_topic:
// applied (then the new topic opens) or queued for a moderator (then the page says so and what
// happens next). A file chosen in the form is attached (./uploads.ts) and its Markdown added; where
// the asker ran it is an optional field (./environment.ts).
import type { Context, Hono } from 'hono';
import { LIMITS } from '../../domain/fields.ts';
import { createTopic, listCategories, suggestAnswer } from '../../operations/community.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type Notice, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, lengths, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';
import {
  composer,
  composerAction,
  draftHref,
  dropDraft,
  handlesHref,
  keepDraft,
  previewOf,
  restoredNotice,
  savedDraft,
  uploadHref,
} from './composer.ts';
import { resultHref, topicHref } from './parts.ts';
import { attachChosen, attachField } from './uploads.ts';
import { environmentField, postedEnvironment, withoutEnvironment } from './environment.ts';
import { unconfirmedNotice } from './unconfirmed.ts';
import { html, type Html } from '../template.ts';

type Similar = { title: string; href: string; solved: boolean };

/** Up to five earlier questions like this one, one per topic, accepted answers first. */
async function similarTo(deps: WebDeps, web: Web, title: string): Promise<Similar[]> {
  if (title.trim().length < LIMITS.title.min) return [];
  const found = await call(deps, web, suggestAnswer, {
    question: title.trim().slice(0, LIMITS.question.max),
    limit: 5,
  });
  if (!found.ok) return [];
  const seen = new Set<string>();
  const out: Similar[] = [];
  for (const a of found.value.answers) {
    if (seen.has(a.topic_id)) continue;
    seen.add(a.topic_id);
    const u = resultHref(web, a);
    out.push({ title: a.title, href: u.split('#')[0]!, solved: a.accepted });
  }
  return out;
}

function similarList(items: Similar[], checked: boolean): Html {
  if (!items.length)
    return checked
      ? html`<p role="status">No similar questions found: go ahead and post yours.</p>`
      : html``;
  return html`<h2>Similar questions</h2><p class="hint">One of these may already answer yours.</p><ul class="topics">${items.map(
    (i) =>
      html`<li><a href="${i.href}">${i.title}</a>${i.solved ? html` <span class="badge">Solved</span>` : ''}</li>`,
  )}</ul>`;
}

async function askPage(
  c: Context<WebEnv>,
  deps: WebDeps,
  values: FormData | undefined,
  o: {
    failure?: Failure;
    similar?: Similar[];
    checked?: boolean;
    status?: number;
    notice?: Notice;
    preview?: Html;
  } = {},
): Promise<Response> {
  const web = c.get('web');
  const [categories, draft, unconfirmed] = await Promise.all([
    call(deps, web, listCategories, {}),
    values ? undefined : savedDraft(deps, web),
    unconfirmedNotice(deps, web),
  ]);
  if (!categories.ok) return failurePage(c, web, categories);
  // Coming back: the draft of a new topic (kept while typing, on Preview or Save draft).
  let notice = o.notice;
  const form = values ?? (draft ? { title: draft.subject, body: draft.body } : {});
  if (draft && !web.flash) notice = restoredNotice(draft.updated_at);
  const hasDraft = Boolean(draft) || o.preview !== undefined;
  // Articles have their own page (./write.ts): questions go to discussion categories.
  const options = categories.value.categories
    .filter((k) => k.kind !== 'knowledge_base')
    .map((k) => ({ value: k.slug, label: k.name }));
  const articles = categories.value.categories.some((k) => k.kind === 'knowledge_base')
    ? html` Writing down something you know instead? <a href="${href(web, '/write')}">Write an article</a>.`
    : '';
  const issues = o.failure?.issues;
  web.scripts = ['ask.js', 'composer.js'];
  const body = html`<h1>Ask a question</h1>
${unconfirmed}<p>Search first: most questions have been asked before. Say what you tried, what happened (exact error text) and what you expected.${articles}</p>
${failureSummary(o.failure)}
${postForm(
  web,
  href(web, '/ask'),
  html`${field({ name: 'category', label: 'Category', options, value: text(form, 'category') || options[0]?.value, required: true }, issues)}
${field({ name: 'title', id: 'title', label: 'Title', hint: `A specific, searchable title: ${lengths(LIMITS.title)}.`, value: text(form, 'title'), required: true, attrs: html`maxlength="${LIMITS.title.max}" autocomplete="off"` }, issues)}
<div id="similar-live" aria-live="polite">${similarList(o.similar ?? [], Boolean(o.checked))}</div>
${composer({
  label: 'Your question',
  hint: `Markdown. ${lengths(LIMITS.questionBody)}.`,
  rows: 12,
  value: text(form, 'body'),
  issues,
  preview: o.preview,
  submit: 'Post your question',
  draftHref: draftHref(web),
  hasDraft,
  handlesHref: handlesHref(web),
  uploadHref: uploadHref(web),
  fields: html`${field(
    {
      name: 'tags',
      label: 'Tags (optional)',
      hint: `Up to ${LIMITS.tags.max}, separated by commas: a-z, 0-9 and "-".`,
      value: text(form, 'tags'),
    },
    issues,
  )}${environmentField(text(form, 'environment'), issues)}`,
  buttons: html`<button type="submit" name="action" value="check" class="secondary" formnovalidate>Check for similar questions</button>`,
  attach: attachField(deps),
})}`,
  html`data-similar="${href(web, '/ask/similar')}" enctype="multipart/form-data"`,
)}`;
  return page(c, web, { title: 'Ask a question', body, status: o.status, notice });
}

export function askRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/ask', (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community')
      return notFound(c, web, 'Questions are asked in a community: open one from the directory.');
    return needsPerson(c, web) ?? askPage(c, deps, undefined);
  });

  app.get('/ask/similar', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return c.json({ similar: [] }, 404);
    return c.json({ similar: await similarTo(deps, web, c.req.query('title') ?? '') });
  });

  app.post('/ask', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const form = (await c.req.parseBody({ all: true })) as FormData;
    // A chosen file is uploaded first, whatever was pressed, and its link added to the question.
    const attached = await attachChosen(deps, web, form);
    if (attached?.kind === 'ok') await keepDraft(deps, web, undefined, form);
    if (text(form, 'action') === 'attach' || attached?.kind === 'error')
      return askPage(c, deps, form, {
        notice: attached ?? { kind: 'error', text: 'Choose a file to attach first.' },
        status: attached?.kind === 'ok' ? undefined : 400,
      });
    if (text(form, 'action') === 'check') {
      return askPage(c, deps, form, {
        similar: await similarTo(deps, web, text(form, 'title')),
        checked: true,
      });
    }
    const action = composerAction(form);
    if (action === 'discard') {
      await dropDraft(deps, web);
      return redirectWith(c, deps, href(web, '/ask'), {
        kind: 'ok',
        text: 'Your draft was discarded.',
      });
    }
    if (action === 'draft')
      return askPage(c, deps, form, { notice: await keepDraft(deps, web, undefined, form) });
    if (action === 'preview') {
      // The question as it will read, kept as the draft on the way.
      if (text(form, 'body').trim()) await keepDraft(deps, web, undefined, form);
      return askPage(c, deps, form, { preview: await previewOf(deps, web, form) });
    }
    // Where the asker ran it: a line the form cannot read comes back with the question kept.
    const environment = postedEnvironment(form);
    if (!environment.ok)
      return askPage(c, deps, form, { failure: environment.failure, status: 400 });
    const outcome = await call(deps, web, createTopic, {
      ...formArgs(createTopic, withoutEnvironment(form)),
      ...(environment.value ? { environment: environment.value } : {}),
    });
    if (!outcome.ok) {
      if (outcome.code === 'invalid_argument' || outcome.code === 'not_found')
        return askPage(c, deps, form, { failure: outcome, status: 400 });
      return failurePage(c, web, outcome, 'Your question was not posted');
    }
    await dropDraft(deps, web);
    if (outcome.value.status === 'pending_approval') {
      return page(c, web, {
        title: 'Waiting for approval',
        body: html`<h1>Your question is waiting for approval</h1><div class="notice ok" role="status"><p>A moderator of this community reviews it before it is published. Nothing is public until then; it will appear in the community once it is approved.</p></div><p><a href="${href(web, '/')}">Back to the community</a></p>`,
      });
    }
    const topic = outcome.value.topic;
    return redirectWith(c, deps, topic ? topicHref(web, topic.slug) : href(web, '/'), {
      kind: 'ok',
      text: 'Your question was posted.',
    });
  });
}
