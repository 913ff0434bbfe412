// What opening a topic page records: a view (counted in memory), and for a signed-in person how far
// they read (one upsert) and their notifications about the topic read, so the bell this very page
// shows has already let go of them. A visitor's read writes nothing.
import { anonymous } from '../../domain/actor.ts';
import type { WebDeps, Web } from '../context.ts';
import type { Post, Topic } from './parts.ts';

export async function noteOpened(
  deps: WebDeps,
  web: Web,
  topic: Pick<Topic, 'id'>,
  posts: Pick<Post, 'position'>[],
): Promise<void> {
  if (web.where.kind !== 'community' || posts.length === 0) return;
  const shownUpTo = Math.max(...posts.map((p) => p.position));
  const { notificationsRead } = await deps.services.reading.opened(
    web.person ?? anonymous,
    web.where.community,
    topic.id,
    shownUpTo,
    web.unread ?? 0,
  );
  if (!notificationsRead) return;
  const now = new Date().toISOString();
  web.unread = Math.max(0, (web.unread ?? 0) - notificationsRead);
  if (web.bell)
    web.bell = {
      unread: web.unread,
      recent: web.bell.recent.map((n) =>
        n.topicId === topic.id && !n.readAt ? { ...n, readAt: now } : n,
      ),
    };
}
