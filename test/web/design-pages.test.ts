// The design pass on every other page type: lists (category, knowledge base, tag, latest), an
// article with its history and revision form, editing and deleting, writing, signing up and
// recovering a password, a profile, a post's history, bookmarks, the account pages, every admin page, the review and moderation
// pages, and a page that is not there: in both schemes, no axe-core violation, nothing wider than
// 320 px, screenshots at 1280 and 390 px (design-kit.ts).
import type { TestHamlet } from '../app/helpers.ts';
import { designPass, type DesignPage } from './design-kit.ts';

const TOPIC = 'verifying-the-hamlet-signature-header';
const acme = (h: TestHamlet) => h.store.communities.getBySlug('acme').then((c) => c!.id);

/** The id of the topic's first post (its question), for the edit page. */
async function editQuestion(h: TestHamlet): Promise<string> {
  const scope = h.store.community(await acme(h));
  const topic = (await scope.topics.getBySlug(TOPIC))!;
  return `/t/${TOPIC}/edit/${(await scope.posts.getFirst(topic.id))!.id}`;
}

/** The history page of the topic's first post. */
async function questionHistory(h: TestHamlet): Promise<string> {
  return (await editQuestion(h)).replace('/edit/', '/history/');
}

async function adminProfile(h: TestHamlet): Promise<string> {
  return `/u/${(await h.store.people.getByEmail('ada@example.org'))!.id}`;
}

const on = (name: string, path: DesignPage['path'], signedIn = false, status?: number) => ({
  name,
  host: 'acme.localhost',
  path,
  signedIn,
  ...(status === undefined ? {} : { status }),
});

designPass('design pass, every other page type', [
  on('category', '/categories/support'),
  on('knowledge-base', '/categories/docs'),
  on('tag', '/tags/guide'),
  on('latest', '/latest'),
  on('article', '/t/getting-started'),
  on('revisions', '/t/getting-started/revisions'),
  on('revise', '/t/getting-started/revise', true),
  on('edit', editQuestion, true),
  on('post-history', questionHistory),
  on('bookmarks', '/bookmarks', true),
  on('delete-topic', `/t/${TOPIC}/delete`, true),
  on('write', '/write', true),
  on('signup', '/signup'),
  on('password-forgot', '/password/forgot'),
  on('profile', adminProfile),
  on('account', '/account', true),
  on('account-apps', '/account/apps', true),
  on('account-notifications', '/account/notifications', true),
  on('admin-agents', '/admin/agents', true),
  on('admin-apps', '/admin/apps', true),
  on('admin-categories', '/admin/categories', true),
  on('admin-mail', '/admin/mail', true),
  on('admin-members', '/admin/members', true),
  on('admin-settings', '/admin/settings', true),
  on('admin-webhooks', '/admin/webhooks', true),
  on('approvals', '/approvals', true),
  on('review', '/review', true),
  on('moderation', '/moderation', true),
  on('not-found', '/t/no-such-topic', false, 404),
]);
