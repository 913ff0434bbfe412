// Writing on a topic's page: the reply composer's Preview, Save draft and Discard draft presses, the
// draft brought back on return, "Reply" to one post and "Quote" it (the reply starts with a link
// to that post, and that post lists the replies that link to it: linked both ways; both are in the
// post's action row), and the script's autosave URL.
import type { Context, Hono } from 'hono';
import type { Failure } from '../../operations/pipeline.ts';
import type { Notice, Web, WebDeps, WebEnv } from '../context.ts';
import { text, type FormData } from '../forms.ts';
import { redirectWith } from '../respond.ts';
import {
  autosave,
  composerAction,
  dropDraft,
  keepDraft,
  previewOf,
  restoredNotice,
  savedDraft,
} from './composer.ts';
import { icon } from './icons.ts';
import { topicHref, type ShownPost, type Topic } from './parts.ts';
import { attachChosen } from './uploads.ts';
import { html, joinHtml, type Html } from '../template.ts';

type Render = (
  c: Context,
  deps: WebDeps,
  o: { values?: FormData; failure?: Failure; notice?: Notice; preview?: Html; status?: number },
) => Promise<Response>;

/** The canonical address of a post (what a reply's link to it keeps, whatever form it was read in). */
function postUrl(deps: WebDeps, web: Web, topic: Topic, postId: string): string {
  const slug = web.where.kind === 'community' ? web.where.community.slug : null;
  return `${deps.canonicalOrigin(slug)}/t/${topic.slug}#post-${postId}`;
}

/** The start of a reply to `p`: a link to it, and with `quote` its text quoted (or `selection`). */
export function replyStart(
  deps: WebDeps,
  web: Web,
  topic: Topic,
  p: ShownPost,
  quote: boolean,
  selection?: string,
): string {
  const link = `[${p.author.name.replace(/[[\]]/g, '')}](${postUrl(deps, web, topic, p.id)})`;
  if (!quote) return `In reply to ${link}:\n\n`;
  const quoted = (selection?.trim() || p.body.trim())
    .split('\n')
    .map((l) => `> ${l}`.trimEnd())
    .join('\n');
  return `${link} wrote:\n${quoted}\n\n`;
}

/** The composer's state on a topic page: the values, a preview, whether a draft is saved. */
export async function composeState(
  c: Context,
  deps: WebDeps,
  web: Web,
  topic: Topic,
  posts: ShownPost[],
  o: { values?: FormData; preview?: Html },
): Promise<{ values: FormData; preview?: Html; hasDraft: boolean; notice?: Notice }> {
  if (o.values) {
    if (web.person) web.scripts = [...(web.scripts ?? []), 'composer.js'];
    return { values: o.values, preview: o.preview, hasDraft: o.preview !== undefined };
  }
  if (!web.person || topic.is_article || topic.status === 'closed')
    return { values: {}, hasDraft: false };
  web.scripts = [...(web.scripts ?? []), 'composer.js'];
  const draft = await savedDraft(deps, web, topic.slug);
  const quoteId = c.req.query('quote');
  const replyId = c.req.query('reply_to');
  const target = posts.find((p) => p.id === (quoteId || replyId));
  const start = target
    ? replyStart(deps, web, topic, target, Boolean(quoteId), c.req.query('selection'))
    : '';
  const body = draft ? (start ? `${draft.body}\n\n${start}` : draft.body) : start;
  return {
    values: { body },
    hasDraft: Boolean(draft),
    notice: draft && !start && !web.flash ? restoredNotice(draft.updated_at) : undefined,
  };
}

/** The reply form's presses other than posting; undefined for "Post reply". */
export async function composerStep(
  c: Context,
  deps: WebDeps,
  web: Web,
  slug: string,
  form: FormData,
  render: Render,
): Promise<Response | undefined> {
  // A chosen file is uploaded first, whatever was pressed, and its link added to the text.
  const attached = await attachChosen(deps, web, form);
  const action = composerAction(form);
  if (action === 'attach' || attached?.kind === 'error') {
    if (attached?.kind === 'ok') await keepDraft(deps, web, slug, form);
    return render(c, deps, {
      values: form,
      notice: attached ?? { kind: 'error', text: 'Choose a file to attach first.' },
      status: attached?.kind === 'ok' ? undefined : 400,
    });
  }
  if (action === 'post') return undefined;
  const back = `${topicHref(web, slug)}#reply`;
  if (action === 'discard') {
    await dropDraft(deps, web, slug);
    return redirectWith(c, deps, back, { kind: 'ok', text: 'Your draft was discarded.' });
  }
  if (action === 'draft') {
    const notice = await keepDraft(deps, web, slug, form);
    return notice.kind === 'ok'
      ? redirectWith(c, deps, back, notice)
      : render(c, deps, { values: form, notice });
  }
  // Preview: the text as it will read, kept as the draft on the way.
  if (text(form, 'body').trim()) await keepDraft(deps, web, slug, form);
  return render(c, deps, { values: form, preview: await previewOf(deps, web, form) });
}

/** "Replies to this: …", under a post that later replies link to. */
export function repliesTo(p: ShownPost, posts: ShownPost[]): Html {
  const anchor = `#post-${p.id}`;
  const replies = posts.filter(
    (r) => r.id !== p.id && r.position > p.position && r.body.includes(anchor),
  );
  return replies.length
    ? html`<p class="meta replies">Replies to this: ${joinHtml(
        replies.map((r) => html`<a href="#post-${r.id}">${r.author.name}</a>`),
        ', ',
      )}</p>`
    : html``;
}

/** "Reply" and "Quote" in a post's action row, for people who may reply here. */
export function replyTools(web: Web, topic: Topic, p: ShownPost): Html[] {
  if (!web.person || topic.is_article || topic.status === 'closed' || topic.locked) return [];
  const here = topicHref(web, topic.slug);
  const who = p.author.name;
  return [
    html`<a class="tool-link" href="${`${here}?reply_to=${p.id}#reply`}">${icon('reply')}Reply<span class="visually-hidden"> to ${who}</span></a>`,
    html`<a class="tool-link icon-only" href="${`${here}?quote=${p.id}#reply`}" data-quote="${p.id}">${icon('quote')}<span class="visually-hidden">Quote ${who}</span></a>`,
  ];
}

export function topicComposeRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.post('/t/:slug/draft', (c) => autosave(c, deps, c.get('web'), c.req.param('slug')));
}
