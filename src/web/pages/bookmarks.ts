// Bookmarks on the web, plain forms that work without JavaScript: on the topic page a signed-in
// person bookmarks the topic and any post with a toggle button (aria-pressed; pressing it again
// removes the bookmark), and /bookmarks lists theirs newest first, paged by cursor, each with its
// own remove button. Visitors see no bookmark controls; /bookmarks asks them to sign in.
import type { Hono } from 'hono';
import { listBookmarks, setBookmark } from '../../operations/bookmarks.ts';
import type { OutputOf } from '../../operations/operation.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { text, type FormData } from '../forms.ts';
import { plainExcerpt, postForm, when } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';
import { author, moreLink, topicHref, type Post, type Topic } from './parts.ts';
import { icon } from './icons.ts';
import { html, type Html } from '../template.ts';

type Bookmark = OutputOf<typeof listBookmarks>['bookmarks'][number];

/** The ids (the topic's, its posts') the signed-in reader bookmarked among these; none for visitors. */
export async function bookmarkedAmong(
  deps: WebDeps,
  web: Web,
  topic: Topic,
  posts: Post[],
): Promise<Set<string>> {
  if (!web.person) return new Set();
  const got = await call(deps, web, listBookmarks, {
    among: [topic.id, ...posts.map((p) => p.id)],
  });
  if (!got.ok) return new Set();
  return new Set(got.value.bookmarks.map((b) => b.post?.id ?? b.topic.id));
}

/**
 * The toggle of one topic (no `post`) or post: "Bookmark", pressed when it is bookmarked. What it
 * names is said to screen readers (`what`), and what pressing it again does.
 */
export function bookmarkButton(
  web: Web,
  topic: Topic,
  post: Post | undefined,
  marked: Set<string>,
  what: string,
): Html {
  if (!web.person) return html``;
  const pressed = marked.has(post?.id ?? topic.id);
  return postForm(
    web,
    href(web, `/t/${topic.slug}/bookmark`),
    html`${post ? html`<input type="hidden" name="post" value="${post.id}">` : ''}<input type="hidden" name="bookmarked" value="${pressed ? 'false' : 'true'}"><button type="submit" class="secondary bookmark${post ? ' icon-button' : ''}" aria-pressed="${pressed ? 'true' : 'false'}">${post ? icon('bookmark') : 'Bookmark'}<span class="visually-hidden">${post ? 'Bookmark' : ''} ${what}${pressed ? ' (bookmarked: press again to remove the bookmark)' : ''}</span></button>`,
    html`class="inline"`,
  );
}

function item(web: Web, b: Bookmark): Html {
  const link = topicHref(web, b.topic.slug, b.post?.id);
  const what = b.post
    ? html`<p class="meta">${b.post.position === 1 ? 'The question' : 'A reply'} by ${author(web, b.post.author)}</p><p>${plainExcerpt(b.post.excerpt, 200)}</p>`
    : html`<p class="meta">The whole topic</p>`;
  const remove = postForm(
    web,
    href(web, `/t/${b.topic.slug}/bookmark`),
    html`${b.post ? html`<input type="hidden" name="post" value="${b.post.id}">` : ''}<input type="hidden" name="bookmarked" value="false"><input type="hidden" name="back" value="bookmarks"><button type="submit" class="link">Remove<span class="visually-hidden"> the bookmark of ${b.topic.title}</span></button>`,
    html`class="inline"`,
  );
  return html`<li><a href="${link}">${b.topic.title}</a>${what}<p class="meta">Bookmarked ${when(b.created_at)} · ${remove}</p></li>`;
}

export function bookmarkRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/bookmarks', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const signIn = needsPerson(c, web);
    if (signIn) return signIn;
    const got = await call(deps, web, listBookmarks, {
      cursor: c.req.query('cursor') || undefined,
    });
    if (!got.ok) return failurePage(c, web, got);
    const items = got.value.bookmarks.map((b) => item(web, b));
    const body = html`<h1>Bookmarks</h1><p class="meta">Only you see your bookmarks. The newest come first.</p>
${items.length ? html`<ul class="bookmarks">${items}</ul>` : html`<p>${c.req.query('cursor') ? 'No more bookmarks.' : 'No bookmarks yet. Press “Bookmark” on a topic or a post to keep it here.'}</p>`}${moreLink(web, '/bookmarks', {}, got.value.next_cursor, 'Older bookmarks')}`;
    return page(c, web, { title: 'Bookmarks', body });
  });

  app.post('/t/:slug/bookmark', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const slug = c.req.param('slug');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const post = text(form, 'post') || undefined;
    const on = text(form, 'bookmarked') !== 'false';
    const outcome = await call(
      deps,
      web,
      setBookmark,
      post ? { post, bookmarked: on } : { topic: slug, bookmarked: on },
    );
    if (!outcome.ok) return failurePage(c, web, outcome, 'The bookmark was not changed');
    const thing = outcome.value.kind === 'post' ? 'post' : 'topic';
    return redirectWith(
      c,
      deps,
      text(form, 'back') === 'bookmarks' ? href(web, '/bookmarks') : topicHref(web, slug, post),
      {
        kind: 'ok',
        text: on
          ? `The ${thing} is in your bookmarks.`
          : `The ${thing} is no longer in your bookmarks.`,
      },
    );
  });
}
