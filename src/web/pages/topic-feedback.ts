// Votes and "this worked" on the topic page, as plain forms that work without JavaScript: each post
// shows its score; a signed-in person votes up (and down where the community allows downvotes) on
// others' posts, the button they pressed shown pressed (pressing it again takes the vote back); on
// an accepted answer, "This worked" / "It did not work" (with what they tried, and optionally where
// they ran it: ./environment.ts) and the answer's confirmations in words. Visitors see the score and a sign-in link.
import type { Hono } from 'hono';
import { LIMITS } from '../../domain/fields.ts';
import { confirmAnswer, getVoteSettings, myFeedback, votePost } from '../../operations/feedback.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { failurePage, redirectWith, signInHref } from '../respond.ts';
import { environmentField, postedEnvironment } from './environment.ts';
import { icon } from './icons.ts';
import { topicHref, type ShownPost, type Topic } from './parts.ts';
import { html, type Html } from '../template.ts';

/** What the reader did on this page's posts, and whether the community takes downvotes. */
export type Feedback = {
  votes: Map<string, number>;
  outcomes: Map<string, boolean>;
  downvotes: boolean;
};

const NONE: Feedback = { votes: new Map(), outcomes: new Map(), downvotes: false };

/** The signed-in reader's votes and reports on `posts` (none for visitors). */
export async function feedbackOf(deps: WebDeps, web: Web, posts: ShownPost[]): Promise<Feedback> {
  if (!web.person || !posts.length) return NONE;
  const [mine, settings] = await Promise.all([
    call(deps, web, myFeedback, { posts: posts.map((p) => p.id) }),
    call(deps, web, getVoteSettings, {}),
  ]);
  if (!mine.ok) return NONE;
  return {
    votes: new Map(mine.value.votes.map((v) => [v.post_id, v.value])),
    outcomes: new Map(mine.value.outcomes.map((o) => [o.post_id, o.worked])),
    downvotes: settings.ok && settings.value.downvotes,
  };
}

/** The score as a number, named "Score" for screen readers (the row shows only the number). */
function scoreText(score: number): Html {
  return html`<span class="visually-hidden">Score </span>${score > 0 ? String(score) : score < 0 ? `−${-score}` : '0'}`;
}

/** The vote control of one post (or just its score, for visitors and on one's own post). */
export function voteControl(
  web: Web,
  topic: Topic,
  p: ShownPost,
  fb: Feedback,
  own: boolean,
): Html {
  const score = html`<span class="score">${scoreText(p.score ?? 0)}</span>`;
  if (!web.person)
    return html`<p class="votes meta">${score} · <a href="${signInHref(web)}">Sign in to vote</a></p>`;
  if (own) return html`<p class="votes meta">${score}</p>`;
  const mine = fb.votes.get(p.id) ?? 0;
  const button = (value: 1 | -1, label: string) => {
    const pressed = mine === value;
    return html`<button type="submit" name="value" value="${pressed ? 0 : value}" class="secondary icon-button" aria-pressed="${pressed ? 'true' : 'false'}">${icon(value === 1 ? 'up' : 'down')}<span class="visually-hidden">${label}${pressed ? ' (press again to take your vote back)' : ''}</span></button>`;
  };
  return postForm(
    web,
    href(web, `/t/${topic.slug}/vote`),
    html`<input type="hidden" name="post" value="${p.id}">${button(1, 'Upvote')} ${score}${fb.downvotes ? html` ${button(-1, 'Downvote')}` : ''}`,
    html`class="votes"`,
  );
}

/** An accepted answer's confirmations, and for a signed-in reader (not its author) the report form. */
export function outcomeControl(
  web: Web,
  topic: Topic,
  p: ShownPost,
  fb: Feedback,
  own: boolean,
): Html {
  if (p.is_question) return html``;
  const summary = p.confirmations?.summary
    ? html`<p class="confirmations meta">${p.confirmations.summary}</p>`
    : html``;
  if (!p.is_solution || !web.person || own) return summary;
  const said = fb.outcomes.get(p.id);
  const note = `note-${p.id}`;
  const form = postForm(
    web,
    href(web, `/t/${topic.slug}/outcome`),
    html`<input type="hidden" name="post" value="${p.id}">${said === undefined ? '' : html`<p class="meta">You reported that this ${said ? 'worked' : 'did not work'} for you.</p>`}
${environmentField('', undefined, `environment-${p.id}`)}
<button type="submit" name="worked" value="true" class="secondary"${said === true ? html` aria-pressed="true"` : ''}>This worked</button>
<details><summary>It did not work</summary>
<label for="${note}">What did you try, and what happened? <span class="hint">(optional, up to ${LIMITS.outcomeNote.max} characters; the asker and the topic's watchers read it)</span></label>
<textarea id="${note}" name="note" rows="3" maxlength="${LIMITS.outcomeNote.max}"></textarea>
<button type="submit" name="worked" value="false" class="secondary">Report that it did not work</button></details>`,
    html`class="outcome"`,
  );
  return html`${summary}${form}`;
}

export function topicFeedbackRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.post('/t/:slug/vote', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const post = text(form, 'post');
    const value = Number(text(form, 'value'));
    const outcome = await call(deps, web, votePost, {
      post,
      value: value === 1 || value === -1 ? value : 0,
    });
    if (!outcome.ok) return failurePage(c, web, outcome, 'Your vote was not recorded');
    const words =
      outcome.value.value === 0
        ? 'Your vote was taken back.'
        : outcome.value.value === 1
          ? 'You upvoted this post.'
          : 'You downvoted this post.';
    return redirectWith(c, deps, topicHref(web, slug, post), { kind: 'ok', text: words });
  });

  app.post('/t/:slug/outcome', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const post = text(form, 'post');
    const worked = text(form, 'worked') === 'true';
    const note = text(form, 'note').trim();
    const environment = postedEnvironment(form);
    if (!environment.ok)
      return failurePage(c, web, environment.failure, 'Your report was not recorded');
    const outcome = await call(deps, web, confirmAnswer, {
      post,
      worked,
      ...(note && !worked ? { note } : {}),
      ...(environment.value ? { environment: environment.value } : {}),
    });
    if (!outcome.ok) return failurePage(c, web, outcome, 'Your report was not recorded');
    return redirectWith(c, deps, topicHref(web, slug, post), {
      kind: 'ok',
      text: worked
        ? 'Thank you: the answer now counts your confirmation.'
        : 'Thank you: your report that it did not work was recorded, and the asker and watchers are told.',
    });
  });
}
