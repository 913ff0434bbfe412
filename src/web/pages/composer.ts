// The composer every writing form shares: a Markdown textarea with the server's own preview (a
// Preview button, no JavaScript needed), drafts kept on the server per person and place (a Save
// draft button; the composer script also saves while one types), and the buttons that say what a
// press does, and where the place takes files, a file input with Attach (./uploads.ts: the file is
// uploaded and its Markdown added to the text). Questions, replies and articles all use it.
// composer.js adds the toolbar, quoting a selection, the @handle hint, and images dropped on or
// pasted into the text (uploaded at once, their Markdown inserted where the cursor is); without it
// all of this works.
import type { Context } from 'hono';
import { renderMarkdown } from '../../domain/markdown.ts';
import { discardDraft, getDraft, saveDraft } from '../../operations/drafts.ts';
import type { Issue } from '../../operations/pipeline.ts';
import { call, href, type Notice, type Web, type WebDeps } from '../context.ts';
import { field, text, type FormData } from '../forms.ts';
import { relativeTime } from '../html.ts';
import { localUploads } from './uploads.ts';
import { html, markupOf, sanitizedHtml, type Html } from '../template.ts';

/** What a press of the composer's buttons asks for: `post` unless one of the others. */
export type ComposerAction = 'post' | 'preview' | 'draft' | 'discard' | 'attach';

export function composerAction(form: FormData): ComposerAction {
  const a = text(form, 'action');
  return a === 'preview' || a === 'draft' || a === 'discard' || a === 'attach' ? a : 'post';
}

export type ComposerSpec = {
  label: string;
  hint: string;
  rows: number;
  value: string;
  issues?: Issue[];
  /** The posted text rendered (after Preview; empty: there was nothing to render). */
  preview?: Html;
  submit: string;
  /** Where the script saves the draft while one types (omitted: no drafts here). */
  draftHref?: string;
  /** A saved draft exists: offer to discard it. */
  hasDraft?: boolean;
  /** Where the script asks whom an "@" may mention (omitted: no hint). */
  handlesHref?: string;
  /** Where the script uploads a dropped or pasted file (omitted: the Attach button only). */
  uploadHref?: string;
  /** Fields shown between the text and the buttons (an ask form's tags). */
  fields?: Html;
  /** Buttons after Preview and the draft's (an ask form's "Check for similar questions"). */
  buttons?: Html;
  /**
   * The file field (./uploads.ts attachField; omitted: this place takes no files), after the
   * buttons: the text's Tab goes on to posting, and posting stays the form's first (default) button.
   */
  attach?: Html;
};

/** The Markdown field, its preview, and the buttons (Post, Preview, Save draft, Discard draft). */
export function composer(s: ComposerSpec): Html {
  const preview =
    s.preview === undefined
      ? ''
      : html`<section class="preview" aria-labelledby="preview-h"><h3 id="preview-h">Preview</h3><div class="post-body">${markupOf(s.preview) ? s.preview : html`<p class="meta">Nothing to preview yet.</p>`}</div></section>`;
  const draft = s.draftHref
    ? html`<button type="submit" name="action" value="draft" class="secondary" formnovalidate>Save draft</button>${s.hasDraft ? html`<button type="submit" name="action" value="discard" class="secondary" formnovalidate>Discard draft</button>` : ''}`
    : '';
  const data = html`${s.draftHref ? html` data-draft="${s.draftHref}"` : ''}${s.handlesHref ? html` data-handles="${s.handlesHref}"` : ''}${s.uploadHref ? html` data-upload="${s.uploadHref}"` : ''}`;
  return html`<div class="composer"${data}>${field(
    {
      name: 'body',
      label: s.label,
      hint: s.hint,
      rows: s.rows,
      value: s.value,
      required: true,
      attrs: html`data-composer`,
    },
    s.issues,
  )}<p class="draft-status meta" aria-live="polite"></p></div>${preview}${s.fields ?? ''}
<div class="actions"><button type="submit" name="action" value="post">${s.submit}</button><button type="submit" name="action" value="preview" class="secondary" formnovalidate>Preview</button>${draft}${s.buttons ?? ''}</div>${s.attach}`;
}

/**
 * The posted Markdown as readers will see it (sanitized like every post, the community's uploaded
 * images shown, their links in the request's form); empty when none.
 */
export async function previewOf(deps: WebDeps, web: Web, form: FormData): Promise<Html> {
  const body = text(form, 'body').trim();
  if (!body) return html``;
  const images =
    web.where.kind === 'community'
      ? await deps.services.uploads.imagesIn(web.where.community, body)
      : undefined;
  return sanitizedHtml(localUploads(deps, web, renderMarkdown(body, images)));
}

/** The person's saved draft at this place (a topic, or undefined: a new topic), if any. */
export async function savedDraft(deps: WebDeps, web: Web, topic?: string) {
  if (!web.person || web.where.kind !== 'community') return undefined;
  const got = await call(deps, web, getDraft, { topic });
  return got.ok && got.value.draft ? got.value.draft : undefined;
}

/** "Your draft of … is back" as the page's notice. */
export function restoredNotice(updatedAt: string): Notice {
  return {
    kind: 'ok',
    text: `Your draft (saved ${relativeTime(updatedAt)}) is back in the form below.`,
  };
}

/** Keeps the form's text as the person's draft; a notice saying whether it was kept. */
export async function keepDraft(
  deps: WebDeps,
  web: Web,
  topic: string | undefined,
  form: FormData,
): Promise<Notice> {
  const body = text(form, 'body').trim();
  if (!body) return { kind: 'error', text: 'There is nothing to save yet: write something first.' };
  const saved = await call(deps, web, saveDraft, {
    topic,
    subject: text(form, 'title') || undefined,
    body,
  });
  return saved.ok
    ? { kind: 'ok', text: 'Draft saved. It will be here when you come back, on any device.' }
    : { kind: 'error', text: `The draft was not saved: ${saved.message}` };
}

/** Drops the person's draft at this place (after posting, or on Discard). */
export async function dropDraft(deps: WebDeps, web: Web, topic?: string): Promise<void> {
  if (web.person) await call(deps, web, discardDraft, { topic });
}

/** The script's autosave: POST body (and title) → JSON `{saved}`; the form token as in any form. */
export async function autosave(
  c: Context,
  deps: WebDeps,
  web: Web,
  topic: string | undefined,
): Promise<Response> {
  if (!web.person || web.where.kind !== 'community') return c.json({ saved: false }, 401);
  const form = (await c.req.parseBody({ all: true })) as FormData;
  const notice = await keepDraft(deps, web, topic, form);
  return c.json({ saved: notice.kind === 'ok' }, notice.kind === 'ok' ? 200 : 400);
}

/**
 * The draft URL of a topic's reply form, or of the new-topic forms (a question and an article
 * share the one draft of a new topic: what one started writing comes back on either page).
 */
export function draftHref(web: Web, topic?: string): string {
  return href(web, topic ? `/t/${topic}/draft` : '/draft');
}

/** Where the composer script uploads a dropped or pasted file (./uploads.ts). */
export function uploadHref(web: Web): string {
  return href(web, '/upload');
}

/** Whom an "@" may mention here, for the composer's hint. */
export function handlesHref(web: Web): string {
  return href(web, '/api/v1/handles');
}
