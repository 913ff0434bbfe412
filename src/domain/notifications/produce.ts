// Who a write notifies, written as rows in the write's own transaction (like the webhook outbox):
// a notification exists exactly when its write committed, and a write replayed through its
// idempotency key returns the recorded result without coming here again. Each recipient gets one
// notification per cause (the store keeps the first of a source key), the most direct kind first.
//
// Never notified: the one who acted, anyone whose level on the topic (or, unset there, its
// category) is mute, and anyone who may not read the community (a private one: members only).
// History (a write carrying its original date) notifies nobody.
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import { topicView } from '../views.ts';
import type { ApprovalRecord } from '../../store/identity.ts';
import type { NewNotification } from '../../store/notifications.ts';
import type { AuthorRef, Community, Topic } from '../../store/types.ts';
import type { Loaded } from '../content-lookup.ts';
import type { PostView, TopicView } from '../views.ts';
import { mentionedHandles } from '../markdown.ts';
import { MAX_MENTIONS, type Mention } from './mentions.ts';
import { isWatchLevel, type NotificationKind, type WatchLevel } from './vocabulary.ts';
import { categoryOf, findTopic } from '../content-lookup.ts';
import { isDomainError } from '../errors.ts';

/** What the writer is told about the @mentions of their post. */
export type MentionReport = {
  /** Handles of people who were notified. */
  notified: string[];
  /** Names of agents mentioned: they have no notifications, and hear of it as of any post. */
  agents: string[];
  /**
   * Handles written that notified no one: no reader of this topic has them (an unknown handle and
   * a non-reader's alike, so the list says nothing of who has an account on the instance).
   */
  cannotRead: string[];
};

type Candidate = { personId: string; kind: NotificationKind };

/** The most direct reason first: of two reasons for one person, the earlier kind wins. */
const PRIORITY: NotificationKind[] = [
  'mentioned',
  'quoted',
  'replied',
  'solution_accepted',
  'watched_topic',
  'watched_post',
  'topic_solved',
];

const POST_LINK = /#post-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi;

type Written = { topic?: TopicView; post?: PostView };

/**
 * The notifications of an applied write (topic.create, post.create, solution.mark). A write that
 * carries its original date (`originalDate`: history, such as an imported mail archive; only the
 * system may give one) notifies nobody: no one is told today, nor mailed, of what was said then.
 */
export async function notifyWritten(
  { tx, config, community }: { tx: Store; config: Config; community: Community },
  kind: string,
  actor: AuthorRef,
  written: Written,
  loaded: Loaded,
  originalDate: string | undefined,
): Promise<MentionReport | undefined> {
  if (originalDate !== undefined) return undefined;
  const scope = tx.community(community.id);
  const topic = loaded.topic ?? (written.topic && (await scope.topics.getById(written.topic.id)));
  if (!topic) return undefined;
  const self = actor.kind === 'person' ? actor.id : null;
  const candidates: Candidate[] = [];
  const mentions = loaded.mentions ?? [];
  const levels = await levelsAround(tx, community, topic);
  if (kind === 'topic.create' && written.post) {
    if (self) await scope.notifications.setLevelIfUnset(self, 'topic', topic.id, 'watch');
    for (const m of mentions)
      if (m.kind === 'person') candidates.push({ personId: m.id, kind: 'mentioned' });
    for (const w of watchers(levels, ['watch'], 'category'))
      candidates.push({ personId: w, kind: 'watched_topic' });
  } else if (kind === 'post.create' && written.post) {
    if (self) await scope.notifications.setLevelIfUnset(self, 'topic', topic.id, 'track');
    for (const m of mentions)
      if (m.kind === 'person') candidates.push({ personId: m.id, kind: 'mentioned' });
    for (const id of new Set([...written.post.body.matchAll(POST_LINK)].map((m) => m[1]!))) {
      const quoted = await scope.posts.getById(id.toLowerCase());
      if (quoted?.author.kind === 'person' && quoted.author.id)
        candidates.push({ personId: quoted.author.id, kind: 'quoted' });
    }
    if (topic.author.kind === 'person' && topic.author.id)
      candidates.push({ personId: topic.author.id, kind: 'replied' });
    for (const w of watchers(levels, ['watch']))
      candidates.push({ personId: w, kind: 'watched_post' });
  } else if (kind === 'solution.mark' && written.topic?.solutionPostId) {
    // The topic as loaded predates the mark: the accepted post is the one the write returned.
    const post = await scope.posts.getById(written.topic.solutionPostId);
    if (post?.author.kind === 'person' && post.author.id)
      candidates.push({ personId: post.author.id, kind: 'solution_accepted' });
    for (const w of watchers(levels, ['watch', 'track']))
      candidates.push({ personId: w, kind: 'topic_solved' });
  } else return undefined;

  const postId = kind === 'solution.mark' ? written.topic!.solutionPostId! : written.post!.id;
  const source = kind === 'solution.mark' ? `solution:${postId}` : `post:${postId}`;
  const { may, allowed } = await readers(
    tx,
    community,
    levels,
    candidates.map((c) => c.personId),
  );
  const chosen = new Map<string, NotificationKind>();
  for (const c of candidates) {
    if (c.personId === self || !allowed.has(c.personId)) continue;
    const had = chosen.get(c.personId);
    if (!had || PRIORITY.indexOf(c.kind) < PRIORITY.indexOf(had)) chosen.set(c.personId, c.kind);
  }
  await scope.notifications.add(
    [...chosen].map(([recipientId, k]) => ({
      recipientId,
      kind: k,
      sourceKey: source,
      topicId: topic.id,
      postId,
      actor: { kind: actor.kind, id: actor.id, name: actor.name },
      title: written.topic?.title ?? topic.title,
    })),
  );
  if (kind === 'solution.mark') return undefined;
  const post = written.post!;
  const mentioned = mentions
    .filter((m) => m.kind === 'agent' || (m.id !== self && allowed.has(m.id)))
    .map((m) => ({ kind: m.kind, id: m.id, handle: m.handle }));
  if (mentioned.length)
    await recordWebhookEvent(tx, community.id, 'mention.created', async () => ({
      topic:
        written.topic ??
        topicView(
          config,
          community,
          (await scope.topics.getById(topic.id)) ?? topic,
          await categoryOf(scope, topic),
        ),
      post,
      mentioned,
    }));
  return mentionReport(
    mentionedHandles(post.body).slice(0, MAX_MENTIONS),
    mentions,
    may,
    allowed,
    self,
  );
}

/** People hear of their mentions by notification; agents as of any post (webhooks, MCP). */
function mentionReport(
  handles: string[],
  mentions: Mention[],
  may: Set<string>,
  allowed: Set<string>,
  self: string | null,
): MentionReport | undefined {
  if (!handles.length) return undefined;
  const report: MentionReport = { notified: [], agents: [], cannotRead: [] };
  const known = new Map(mentions.map((m) => [m.handle, m]));
  for (const handle of handles) {
    const m = known.get(handle);
    if (m?.kind === 'agent') report.agents.push(m.handle);
    else if (m && m.id === self) continue;
    else if (m && allowed.has(m.id)) report.notified.push(m.handle);
    else if (!m || !may.has(m.id)) report.cannotRead.push(handle);
  }
  return report;
}

/** The decision on a queued write, to the person who submitted it (agents: see approval.decided). */
export async function notifyDecision(
  tx: Store,
  community: Community,
  approval: ApprovalRecord,
): Promise<void> {
  const submitter = approval.submitter;
  if (submitter.kind !== 'person' || !submitter.id) return;
  const kind: NotificationKind | undefined =
    approval.status === 'applied'
      ? 'approval_applied'
      : approval.status === 'rejected'
        ? 'approval_rejected'
        : approval.status === 'failed'
          ? 'approval_failed'
          : undefined;
  if (!kind) return;
  if (community.visibility !== 'public') {
    const members = await tx.community(community.id).notifications.members([submitter.id]);
    if (!members.has(submitter.id)) return;
  }
  const result = (approval.result ?? {}) as Written;
  const payload = (approval.payload ?? {}) as { title?: string; topic?: string };
  const decider = approval.decidedBy ?? { kind: 'system' as const, id: null, name: 'a moderator' };
  // A reply names the topic it was written in (a reply not published still has one): the
  // notification's sentence reads "… your reply to “<topic>” …", never the write's kind.
  const repliedIn =
    !result.topic && typeof payload.topic === 'string'
      ? await findTopic(tx.community(community.id), payload.topic).catch((err: unknown) => {
          if (isDomainError(err)) return undefined;
          throw err;
        })
      : undefined;
  const notification: NewNotification = {
    recipientId: submitter.id,
    kind,
    sourceKey: `approval:${approval.id}`,
    topicId: result.topic?.id ?? result.post?.topicId ?? repliedIn?.id ?? null,
    postId: result.post?.id ?? null,
    approvalId: approval.id,
    actor: { kind: decider.kind, id: decider.id, name: decider.name },
    title: result.topic?.title ?? payload.title ?? repliedIn?.title ?? 'your post',
    reason: approval.reason,
  };
  await tx.community(community.id).notifications.add([notification]);
}

/**
 * A "did not work" report with a note, to the topic's author and the people who watch or track it
 * (not the reporter; once per reporter and post: changing the report again adds nothing).
 */
export async function notifyOutcomeFailed(
  tx: Store,
  community: Community,
  topic: Topic,
  postId: string,
  reporter: AuthorRef,
  note: string,
): Promise<void> {
  const levels = await levelsAround(tx, community, topic);
  const people = new Set(watchers(levels, ['watch', 'track']));
  if (topic.author.kind === 'person' && topic.author.id) people.add(topic.author.id);
  if (reporter.kind === 'person' && reporter.id) people.delete(reporter.id);
  const { allowed } = await readers(tx, community, levels, [...people]);
  await tx.community(community.id).notifications.add(
    [...allowed].map((recipientId) => ({
      recipientId,
      kind: 'answer_failed',
      sourceKey: `outcome:${postId}:${reporter.kind}:${reporter.id}`,
      topicId: topic.id,
      postId,
      actor: { kind: reporter.kind, id: reporter.id, name: reporter.name },
      title: topic.title,
      reason: note,
    })),
  );
}

/** People whose level on the topic (or, where they set none there, on its category) is in `levels`. */
type LevelRow = { personId: string; targetKind: string; level: string };

/** The watch levels set on the topic and on its category (one read for every use below). */
async function levelsAround(tx: Store, community: Community, topic: Topic): Promise<LevelRow[]> {
  return tx.community(community.id).notifications.levelsOn([
    { kind: 'topic', id: topic.id },
    { kind: 'category', id: topic.categoryId },
  ]);
}

/** Who watches at one of `levels`: a level on the topic wins over the category's (`only`: the category's alone). */
function watchers(rows: LevelRow[], levels: WatchLevel[], only?: 'category'): string[] {
  const effective = new Map<string, string>();
  for (const r of rows) {
    if (only && r.targetKind !== 'category') continue;
    if (r.targetKind === 'topic' || !effective.has(r.personId)) effective.set(r.personId, r.level);
  }
  return [...effective]
    .filter(([, level]) => isWatchLevel(level) && levels.includes(level))
    .map(([id]) => id);
}

/** Of `personIds`, those who may read the topic, and of them those who did not mute it. */
async function readers(
  tx: Store,
  community: Community,
  rows: LevelRow[],
  personIds: string[],
): Promise<{ may: Set<string>; allowed: Set<string> }> {
  if (personIds.length === 0) return { may: new Set(), allowed: new Set() };
  const may =
    community.visibility === 'public'
      ? new Set(personIds)
      : await tx.community(community.id).notifications.members(personIds);
  const topicLevel = new Map<string, string>();
  const categoryLevel = new Map<string, string>();
  for (const r of rows)
    (r.targetKind === 'topic' ? topicLevel : categoryLevel).set(r.personId, r.level);
  const allowed = new Set(
    [...may].filter((id) => (topicLevel.get(id) ?? categoryLevel.get(id) ?? 'normal') !== 'mute'),
  );
  return { may, allowed };
}
