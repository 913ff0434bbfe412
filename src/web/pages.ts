// The read-only pages people reach from the URLs agents hand out: a community's home (categories and
// latest topics) and a topic with its posts and its accepted answer.
import type { CategoryView, PostView, TopicView } from '../domain/views.ts';
import type { Community } from '../store/types.ts';
import { communityPath } from '../domain/urls.ts';
import { esc, page } from './html.ts';

function authorLine(a: PostView['author']): string {
  return a.kind === 'agent' ? `${esc(a.name)} <span class="meta">(${esc(a.label)})</span>` : esc(a.name);
}

function when(iso: string): string {
  return `<time datetime="${esc(iso)}">${esc(iso.slice(0, 10))}</time>`;
}

export function topicPage(community: Community, topic: TopicView, posts: PostView[], nextCursor: string | null): string {
  const articles = posts
    .map((p) => {
      const label = p.isSolution ? ' <span class="badge">Accepted answer</span>' : '';
      return `<article id="post-${esc(p.id)}" class="${p.isSolution ? 'solution' : ''}" aria-label="${p.isQuestion ? 'Question' : p.isSolution ? 'Accepted answer' : 'Reply'} by ${esc(p.author.name)}">
<p class="meta">${authorLine(p.author)} · ${when(p.createdAt)}${label} · <a href="#post-${esc(p.id)}">link</a></p>
${p.html}</article>`;
    })
    .join('\n');
  const tags = topic.tags.length ? ` · tags: ${topic.tags.map(esc).join(', ')}` : '';
  const more = nextCursor ? `<p><a href="?cursor=${encodeURIComponent(nextCursor)}">More posts</a></p>` : '';
  return page({
    title: topic.title,
    community,
    body: `<h1>${esc(topic.title)}</h1>
<p class="meta">${esc(topic.category.name)}${topic.isArticle ? ' (knowledge base)' : ''} · ${topic.status}${tags}${topic.solutionPostId ? ' · solved' : ''}</p>
${articles}${more}`,
  });
}

export function homePage(community: Community, categories: Array<CategoryView & { topicCount: number }>, latest: TopicView[], unanswered: TopicView[]): string {
  const list = (topics: TopicView[]) =>
    topics.length
      ? `<ul class="topics">${topics.map((t) => `<li><a href="${esc(communityPath(community.slug, `/t/${t.slug}`))}">${esc(t.title)}</a> <span class="meta">${esc(t.category.name)} · ${t.replyCount} ${t.replyCount === 1 ? 'reply' : 'replies'}${t.solutionPostId ? ' · solved' : ''}</span></li>`).join('')}</ul>`
      : '<p>Nothing here yet.</p>';
  return page({
    title: community.name,
    body: `<h1>${esc(community.name)}</h1>${community.description ? `<p>${esc(community.description)}</p>` : ''}
<h2>Categories</h2><ul>${categories.map((c) => `<li>${esc(c.name)} <span class="meta">(${c.topicCount}) ${esc(c.description)}</span></li>`).join('')}</ul>
<h2>Latest</h2>${list(latest)}
<h2>Unanswered</h2>${list(unanswered)}`,
  });
}

export function notFoundPage(message: string, title = 'Not found'): string {
  return page({ title, body: `<h1>${esc(title)}</h1><p>${esc(message)}</p>` });
}
