// Writing a knowledge-base article: its own page (not "Ask a question"), offering only the
// knowledge-base categories, with the composer's Preview and a draft kept on the server. Posting
// is create_topic in that category (which writes an article), applied or queued for a moderator.
// Files are attached as in every composer (./uploads.ts).
import type { Context, Hono } from 'hono';
import { LIMITS } from '../../domain/fields.ts';
import { createTopic, listCategories } from '../../operations/community.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type Notice, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, lengths, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';
import {
  autosave,
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
import { topicHref } from './parts.ts';
import { unconfirmedNotice } from './unconfirmed.ts';
import { attachChosen, attachField } from './uploads.ts';
import { html, type Html } from '../template.ts';

async function writePage(
  c: Context<WebEnv>,
  deps: WebDeps,
  values: FormData | undefined,
  o: { failure?: Failure; status?: number; preview?: Html; notice?: Notice } = {},
): Promise<Response> {
  const web = c.get('web');
  const categories = await call(deps, web, listCategories, {});
  if (!categories.ok) return failurePage(c, web, categories);
  const options = categories.value.categories
    .filter((k) => k.kind === 'knowledge_base')
    .map((k) => ({ value: k.slug, label: k.name }));
  if (!options.length)
    return notFound(c, web, 'This community has no knowledge base to write an article in.');
  let notice = o.notice;
  let form = values;
  let hasDraft = o.preview !== undefined;
  if (!form) {
    const draft = await savedDraft(deps, web);
    form = draft ? { title: draft.subject, body: draft.body } : {};
    hasDraft = Boolean(draft);
    if (draft && !web.flash) notice = restoredNotice(draft.updated_at);
  }
  const issues = o.failure?.issues;
  web.scripts = ['composer.js'];
  const body = html`<h1>Write an article</h1>
${await unconfirmedNotice(deps, web)}<p>An article explains one thing well, for readers who arrive from a search. Members can revise it later; every revision is kept.</p>
${failureSummary(o.failure)}
${postForm(
  web,
  href(web, '/write'),
  html`${field({ name: 'category', label: 'Knowledge base', options, value: text(form, 'category') || options[0]!.value, required: true }, issues)}
${field({ name: 'title', label: 'Title', hint: `What the article explains: ${lengths(LIMITS.title)}.`, value: text(form, 'title'), required: true, attrs: html`maxlength="${LIMITS.title.max}"` }, issues)}
${composer({ label: 'Article', hint: `Markdown. ${lengths(LIMITS.questionBody)}.`, rows: 16, value: text(form, 'body'), issues, preview: o.preview, submit: 'Publish the article', draftHref: draftHref(web), hasDraft, handlesHref: handlesHref(web), uploadHref: uploadHref(web), fields: field({ name: 'tags', label: 'Tags (optional)', hint: `Up to ${LIMITS.tags.max}, separated by commas: a-z, 0-9 and "-".`, value: text(form, 'tags') }, issues), attach: attachField(deps) })}`,
  html`enctype="multipart/form-data"`,
)}`;
  return page(c, web, { title: 'Write an article', body, status: o.status, notice });
}

export function writeRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/write', (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    return needsPerson(c, web) ?? writePage(c, deps, undefined);
  });

  app.post('/draft', (c) => autosave(c, deps, c.get('web'), undefined));

  app.post('/write', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const form = (await c.req.parseBody({ all: true })) as FormData;
    // A chosen file is uploaded first, whatever was pressed, and its link added to the text.
    const attached = await attachChosen(deps, web, form);
    const action = composerAction(form);
    if (action === 'attach' || attached?.kind === 'error') {
      if (attached?.kind === 'ok') await keepDraft(deps, web, undefined, form);
      return writePage(c, deps, form, {
        notice: attached ?? { kind: 'error', text: 'Choose a file to attach first.' },
        status: attached?.kind === 'ok' ? undefined : 400,
      });
    }
    if (action === 'discard') {
      await dropDraft(deps, web);
      return redirectWith(c, deps, href(web, '/write'), {
        kind: 'ok',
        text: 'Your draft was discarded.',
      });
    }
    if (action === 'draft') {
      const notice = await keepDraft(deps, web, undefined, form);
      return writePage(c, deps, form, { notice, preview: undefined });
    }
    if (action === 'preview') {
      if (text(form, 'body').trim()) await keepDraft(deps, web, undefined, form);
      return writePage(c, deps, form, { preview: await previewOf(deps, web, form) });
    }
    const outcome = await call(deps, web, createTopic, formArgs(createTopic, form));
    if (!outcome.ok) {
      if (outcome.code === 'invalid_argument' || outcome.code === 'not_found')
        return writePage(c, deps, form, { failure: outcome, status: 400 });
      return failurePage(c, web, outcome, 'Your article was not published');
    }
    await dropDraft(deps, web);
    if (outcome.value.status === 'pending_approval')
      return page(c, web, {
        title: 'Waiting for review',
        body: html`<h1>Your article is waiting for review</h1><div class="notice ok" role="status"><p>A moderator of this community reviews it before it is published. Nothing is public until then; it will appear in the knowledge base once it is approved.</p></div><p><a href="${href(web, '/')}">Back to the community</a></p>`,
      });
    const topic = outcome.value.topic;
    return redirectWith(c, deps, topic ? topicHref(web, topic.slug) : href(web, '/'), {
      kind: 'ok',
      text: 'Your article was published.',
    });
  });
}
