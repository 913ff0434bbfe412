// A community's notifications, watch levels and e-mail preferences, and the mail side's queue of
// notifications not mailed yet (over every community). Every community query carries its id.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type { NotificationDatabase, NotificationsTable } from '../notifications-schema.ts';
import { glance, placeOf, places, readOnTopic } from './notification-glance.ts';
import type {
  DigestItem,
  GlancedNotification,
  NotificationPlace,
  DueDigest,
  LevelRecord,
  NewNotification,
  NotificationEmailState,
  NotificationMailQueue,
  NotificationRecord,
  NotificationRepository,
  WatchTarget,
} from '../notifications.ts';
import type { AuthorKind, Keyset, Page } from '../types.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso, toIsoOrNull } from '../time.ts';
import { timeOrderedId } from './identity-rows.ts';
import { newestFirst } from './newest-first.ts';

type Db = Kysely<NotificationDatabase>;
export const notificationDb = (db: Kysely<Database>): Db => db as unknown as Db;

function fromRow(r: Selectable<NotificationsTable>): NotificationRecord {
  return {
    id: r.id,
    communityId: r.community_id,
    recipientId: r.recipient_id,
    kind: r.kind,
    sourceKey: r.source_key,
    topicId: r.topic_id,
    postId: r.post_id,
    approvalId: r.approval_id,
    actor: { kind: r.actor_kind as AuthorKind, id: r.actor_id, name: r.actor_name },
    title: r.title,
    reason: r.reason,
    createdAt: toIso(r.created_at),
    readAt: toIsoOrNull(r.read_at),
    emailState: r.email_state as NotificationEmailState,
    emailedAt: toIsoOrNull(r.emailed_at),
  };
}

const uuids = (ids: string[]) => ids.filter(isUuid);

export class KyselyNotifications implements NotificationRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async add(rows: NewNotification[]): Promise<number> {
    let added = 0;
    for (const n of rows) {
      const createdAt = n.createdAt ? toIso(n.createdAt) : nowIso();
      const result = await this.db
        .insertInto('notifications')
        .values({
          id: timeOrderedId(Date.parse(createdAt)),
          community_id: this.communityId,
          recipient_id: n.recipientId,
          kind: n.kind,
          source_key: n.sourceKey,
          topic_id: n.topicId ?? null,
          post_id: n.postId ?? null,
          approval_id: n.approvalId ?? null,
          actor_kind: n.actor.kind,
          actor_id: n.actor.id,
          actor_name: n.actor.name,
          title: n.title,
          reason: n.reason ?? null,
          created_at: createdAt,
          email_state: 'pending',
        })
        .onConflict((oc) => oc.columns(['community_id', 'recipient_id', 'source_key']).doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return added;
  }

  async list(
    recipientId: string,
    page: { after?: Keyset; limit: number; unreadOnly?: boolean },
  ): Promise<Page<NotificationRecord, Keyset>> {
    if (!isUuid(recipientId)) return { items: [], next: null };
    let q = this.db
      .selectFrom('notifications')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('recipient_id', '=', recipientId);
    if (page.unreadOnly) q = q.where('read_at', 'is', null);
    return newestFirst(q, page, fromRow);
  }

  async unreadCount(recipientId: string): Promise<number> {
    if (!isUuid(recipientId)) return 0;
    const row = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('community_id', '=', this.communityId)
      .where('recipient_id', '=', recipientId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async markRead(recipientId: string, ids: string[] | null, at: string): Promise<number> {
    if (!isUuid(recipientId)) return 0;
    if (ids && uuids(ids).length === 0) return 0;
    let q = this.db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('community_id', '=', this.communityId)
      .where('recipient_id', '=', recipientId)
      .where('read_at', 'is', null);
    if (ids) q = q.where('id', 'in', uuids(ids));
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async glance(recipientId: string, limit: number) {
    const { rows } = await glance(this.db as never, this.communityId, recipientId, limit);
    const items: GlancedNotification[] = rows.map((r) => ({ ...fromRow(r), ...placeOf(r) }));
    return { items, unread: Number(rows[0]?.unread ?? 0) };
  }

  async places(recipientId: string, ids: string[]): Promise<Map<string, NotificationPlace>> {
    return places(this.db as never, this.communityId, recipientId, ids);
  }

  async readOnTopic(recipientId: string, topicId: string, at: string): Promise<number> {
    return readOnTopic(this.db as never, this.communityId, recipientId, topicId, at);
  }

  async level(personId: string, target: WatchTarget, targetId: string) {
    if (!isUuid(personId) || !isUuid(targetId)) return undefined;
    const row = await this.db
      .selectFrom('notification_levels')
      .select('level')
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('target_kind', '=', target)
      .where('target_id', '=', targetId)
      .executeTakeFirst();
    return row?.level;
  }

  async setLevel(personId: string, target: WatchTarget, targetId: string, level: string | null) {
    const key = {
      community_id: this.communityId,
      person_id: personId,
      target_kind: target,
      target_id: targetId,
    };
    if (level === null) {
      await this.db
        .deleteFrom('notification_levels')
        .where('community_id', '=', key.community_id)
        .where('person_id', '=', personId)
        .where('target_kind', '=', target)
        .where('target_id', '=', targetId)
        .execute();
      return;
    }
    const updated_at = nowIso();
    await this.db
      .insertInto('notification_levels')
      .values({ ...key, level, updated_at })
      .onConflict((oc) =>
        oc
          .columns(['community_id', 'person_id', 'target_kind', 'target_id'])
          .doUpdateSet({ level, updated_at }),
      )
      .execute();
  }

  async setLevelIfUnset(personId: string, target: WatchTarget, targetId: string, level: string) {
    await this.db
      .insertInto('notification_levels')
      .values({
        community_id: this.communityId,
        person_id: personId,
        target_kind: target,
        target_id: targetId,
        level,
        updated_at: nowIso(),
      })
      .onConflict((oc) =>
        oc.columns(['community_id', 'person_id', 'target_kind', 'target_id']).doNothing(),
      )
      .execute();
  }

  async levelsOn(targets: { kind: WatchTarget; id: string }[]): Promise<LevelRecord[]> {
    const valid = targets.filter((t) => isUuid(t.id));
    if (valid.length === 0) return [];
    // One statement for every target; rows in the targets' order, as callers rank a topic's first.
    const rows = await this.db
      .selectFrom('notification_levels')
      .select(['person_id', 'target_kind', 'target_id', 'level'])
      .where('community_id', '=', this.communityId)
      .where((eb) =>
        eb.or(
          valid.map((t) => eb.and([eb('target_kind', '=', t.kind), eb('target_id', '=', t.id)])),
        ),
      )
      .execute();
    const at = (r: { target_kind: string; target_id: string }) =>
      valid.findIndex((t) => t.kind === r.target_kind && t.id === r.target_id);
    return rows.sort((a, b) => at(a) - at(b)).map(levelFromRow);
  }

  async levelsOf(personId: string, target: WatchTarget): Promise<LevelRecord[]> {
    if (!isUuid(personId)) return [];
    const rows = await this.db
      .selectFrom('notification_levels')
      .select(['person_id', 'target_kind', 'target_id', 'level'])
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('target_kind', '=', target)
      .execute();
    return rows.map(levelFromRow);
  }

  async emailPreference(personId: string): Promise<string | undefined> {
    if (!isUuid(personId)) return undefined;
    const row = await this.db
      .selectFrom('notification_preferences')
      .select('email')
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .executeTakeFirst();
    return row?.email;
  }

  async setEmailPreference(personId: string, email: string): Promise<void> {
    const updated_at = nowIso();
    await this.db
      .insertInto('notification_preferences')
      .values({ community_id: this.communityId, person_id: personId, email, updated_at })
      .onConflict((oc) =>
        oc.columns(['community_id', 'person_id']).doUpdateSet({ email, updated_at }),
      )
      .execute();
  }

  async members(personIds: string[]): Promise<Set<string>> {
    const ids = uuids([...new Set(personIds)]);
    if (!ids.length) return new Set();
    const rows = await this.db
      .selectFrom('memberships')
      .select('person_id')
      .where('community_id', '=', this.communityId)
      .where('person_id', 'in', ids)
      .execute();
    return new Set(rows.map((r) => r.person_id));
  }

  async waitingForDigest(
    recipientId: string,
    before: string,
    limit: number,
  ): Promise<DigestItem[]> {
    if (!isUuid(recipientId)) return [];
    const rows = await this.db
      .selectFrom('notifications as n')
      .leftJoin('topics as t', (j) =>
        j.onRef('t.id', '=', 'n.topic_id').onRef('t.community_id', '=', 'n.community_id'),
      )
      .selectAll('n')
      .select('t.slug as topic_slug')
      .where('n.community_id', '=', this.communityId)
      .where('n.recipient_id', '=', recipientId)
      .where('n.email_state', '=', 'digest')
      .where('n.created_at', '<', before)
      .orderBy('n.created_at')
      .orderBy('n.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...fromRow(r), topicSlug: r.topic_slug ?? null }));
  }
}

function levelFromRow(r: {
  person_id: string;
  target_kind: string;
  target_id: string;
  level: string;
}): LevelRecord {
  return {
    personId: r.person_id,
    targetKind: r.target_kind as WatchTarget,
    targetId: r.target_id,
    level: r.level,
  };
}

/** Notifications over every community that the mail side has not mailed (or skipped) yet. */
export class KyselyNotificationMail implements NotificationMailQueue {
  constructor(private readonly db: Db) {}

  async pending(limit: number): Promise<NotificationRecord[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .selectAll()
      .where('email_state', '=', 'pending')
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(fromRow);
  }

  async settle(
    id: string,
    state: Exclude<NotificationEmailState, 'pending'>,
    at: string,
  ): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .updateTable('notifications')
      .set({ email_state: state, emailed_at: at })
      .where('id', '=', id)
      .where('email_state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async digestsDue(input: {
    dayStart: string;
    weekStart: string;
    limit: number;
  }): Promise<DueDigest[]> {
    const rows = await this.db
      .selectFrom('notifications as n')
      .leftJoin('notification_preferences as p', (j) =>
        j
          .onRef('p.community_id', '=', 'n.community_id')
          .onRef('p.person_id', '=', 'n.recipient_id'),
      )
      .select(['n.community_id', 'n.recipient_id', (eb) => eb.fn.countAll().as('waiting')])
      .where('n.email_state', '=', 'digest')
      .where((eb) =>
        eb.or([
          eb.and([eb('p.email', '=', 'weekly'), eb('n.created_at', '<', input.weekStart)]),
          eb.and([
            eb.or([eb('p.email', 'is', null), eb('p.email', '!=', 'weekly')]),
            eb('n.created_at', '<', input.dayStart),
          ]),
        ]),
      )
      .groupBy(['n.community_id', 'n.recipient_id'])
      .orderBy('n.community_id')
      .orderBy('n.recipient_id')
      .limit(input.limit)
      .execute();
    return rows.map((r) => ({
      communityId: r.community_id,
      recipientId: r.recipient_id,
      waiting: Number(r.waiting),
    }));
  }

  async settleDigest(
    ids: string[],
    at: string,
    state: 'sent' | 'skipped' = 'sent',
  ): Promise<number> {
    let settled = 0;
    const valid = uuids(ids);
    for (let i = 0; i < valid.length; i += 500) {
      const result = await this.db
        .updateTable('notifications')
        .set({ email_state: state, emailed_at: at })
        .where('id', 'in', valid.slice(i, i + 500))
        .where('email_state', '=', 'digest')
        .executeTakeFirst();
      settled += Number(result.numUpdatedRows);
    }
    return settled;
  }
}
