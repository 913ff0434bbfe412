// What live MCP sessions hear without asking: a subscribed topic (or article) resource hears about
// its new posts, edits and solutions; every session of a community hears that its tool and prompt
// lists changed when the community's MCP configuration changes (resources too: its skills are served
// as resources) (here, in the CLI, or on another
// instance over the same database).
import { BoundedCache } from '../bounded-cache.ts';
import type { ContentEvent } from '../domain/events.ts';
import type { Logger } from '../log.ts';
import type { McpStack } from '../mcp/stack.ts';
import type { Store } from '../store/repositories.ts';
import { communityScope } from './endpoints.ts';
import { resourceUris } from './resources.ts';

/** Community slugs kept for resource URIs (a slug is read again once pushed out). */
export const CACHED_SLUGS = 10_000;

/** notifications/resources/updated for the topic (and article) resources a content event touched. */
export function topicUpdates(
  store: Store,
  mcp: McpStack,
): { notify: (event: ContentEvent) => Promise<void>; cachedSlugs: () => number } {
  const slugs = new BoundedCache<string, string>({ maxEntries: CACHED_SLUGS });
  const notify = async (event: ContentEvent) => {
    if (!('topicId' in event)) return;
    let slug = slugs.get(event.communityId);
    if (!slug) {
      slug = (await store.communities.getById(event.communityId))?.slug;
      if (!slug) return;
      slugs.set(event.communityId, slug);
    }
    const scope = communityScope(event.communityId);
    await mcp.engine.notifyResourceUpdated(scope, resourceUris.topic(slug, event.topicId));
    if (event.type === 'article.updated') {
      const topic = await store.community(event.communityId).topics.getById(event.topicId);
      if (topic)
        await mcp.engine.notifyResourceUpdated(scope, resourceUris.article(slug, topic.slug));
    }
  };
  return { notify, cachedSlugs: () => slugs.size };
}

/**
 * Watches the communities' MCP configuration and tells the sessions whose streams this instance
 * holds that their lists changed. Returns the function that stops watching.
 */
export function watchMcpConfig(o: {
  store: Store;
  mcp: McpStack;
  forget: (communityId: string) => void;
  logger: Logger;
  everyMs?: number;
}): () => void {
  let since = Date.now();
  let running = false;
  const check = async () => {
    if (running) return;
    running = true;
    try {
      const changed = await o.store.mcpConfig.changedSince(since);
      for (const { communityId, updatedAt } of changed) {
        since = Math.max(since, updatedAt);
        o.forget(communityId);
        const live = o.mcp.hub.liveSessionIds();
        for (const list of ['tools', 'prompts', 'resources'] as const) {
          await o.mcp.engine.notifyListChanged(communityScope(communityId), list, live);
        }
      }
    } catch (err) {
      o.logger.warn({ err }, 'MCP configuration watch failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void check(), o.everyMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
