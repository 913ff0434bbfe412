// What a write or an outcome report leaves beside the post, inside its transaction: the
// environment it ran in (the post's own, or the report's), and the posts it cites as sources
// (each cited post's cited_by recounted: distinct owners, the post's own author left out; each
// citation announced as post.cited).
import type { Store } from '../../store/repositories.ts';
import type { Community, Post, Topic } from '../../store/types.ts';
import type { Environment } from '../../store/votes.ts';
import type { Config } from '../../config/config.ts';
import { DomainError } from '../errors.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import { postView, topicView } from '../views.ts';
import { categoryOf } from '../content-lookup.ts';
import { authorKey } from './owners.ts';

/** The post's own environment: its rows (what filters test) and its signals (what readers see). */
export async function recordPostEnvironment(
  tx: Store,
  community: Community,
  post: { id: string; topicId: string },
  environment: Environment | undefined,
): Promise<void> {
  if (!environment || !Object.keys(environment).length) return;
  const scope = tx.community(community.id);
  await scope.knowledge.setEnvironment(post, '', null, environment);
  await scope.votes.setEnvironment(post, environment);
}

/** Who cites, and from what ("post:<id>", "outcome:<reporter>:<post id>"). */
export type Citation = {
  citing: { kind: 'post' | 'outcome'; postId: string; key: string };
  by: { kind: 'person' | 'agent' | 'system'; id: string | null; name: string };
  /** The citer's owner key: one owner counts once. */
  owner: string;
};

/** Records the sources a write used; refuses ids that are not posts of this community. */
export async function citeSources(
  tx: Store,
  config: Config,
  community: Community,
  sources: string[] | undefined,
  citation: Citation,
): Promise<void> {
  const ids = [...new Set(sources ?? [])].filter((id) => id !== citation.citing.postId);
  if (!ids.length) return;
  const scope = tx.community(community.id);
  const found = await scope.knowledge.citable(ids);
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length)
    throw new DomainError(
      'invalid_argument',
      `sources: no post ${unknown.map((id) => `"${id}"`).join(', ')} in "${community.slug}". Cite post ids of this community (posts[].id of get_topic, source_id of a post result).`,
    );
  const self = authorKey(citation.by);
  const cited = [...found.values()].filter((p) => p.author !== self);
  const counts = await scope.knowledge.cite(citation.citing.key, citation.owner, cited);
  for (const p of cited) {
    const n = counts.get(p.id) ?? 0;
    await scope.votes.setCited(p, n);
    await recordWebhookEvent(tx, community.id, 'post.cited', async () => {
      const post = (await scope.posts.getById(p.id)) as Post;
      const topic = (await scope.topics.getById(p.topicId)) as Topic;
      const category = await categoryOf(scope, topic);
      return {
        topic: topicView(config, community, topic, category),
        post: postView(config, community, topic, post),
        citation: {
          cited_by: n,
          citing: { kind: citation.citing.kind, post_id: citation.citing.postId },
          by: citation.by,
        },
      };
    });
  }
}
