// SessionStore over the database (SQLite or PostgreSQL): sessions, their streams and the events
// kept for Last-Event-ID resumption, and the index of subscriptions by resource. Bounded like the
// in-memory store: events per stream are trimmed on append, sessions per address and per owner on
// create, the number of sessions on sweep (in batches, so requests run between them).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import {
  streamOfEvent,
  type JsonRpcMessage,
  type SessionCaps,
  type SessionRecord,
  type SessionStore,
  type StoredEvent,
} from '../../mcp/session-store.ts';

type Limits = { maxSessions: number; maxEventsPerStream: number };

export class KyselySessionStore implements SessionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly limits: Limits = { maxSessions: 100_000, maxEventsPerStream: 200 },
  ) {}

  private secret: Promise<Buffer> | undefined;

  async create(s: SessionRecord, caps?: SessionCaps): Promise<void> {
    if (caps) {
      if (s.clientIp) await this.makeRoom('client_ip', s.clientIp, caps.perClientIp);
      if (s.owner) await this.makeRoom('owner', s.owner, caps.perOwner);
    }
    await this.db
      .insertInto('mcp_sessions')
      .values({
        id: s.id,
        scope: s.scope,
        owner: s.owner ?? null,
        client_ip: s.clientIp ?? null,
        protocol_version: s.protocolVersion,
        client_info: s.clientInfo ? JSON.stringify(s.clientInfo) : null,
        client_capabilities: JSON.stringify(s.clientCapabilities),
        log_level: s.logLevel ?? null,
        subscriptions: '[]',
        created_at: s.createdAt,
        last_seen_at: s.lastSeenAt,
      })
      .execute();
    if (s.subscriptions.length) await this.update(s.id, { subscriptions: s.subscriptions });
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const row = await this.db
      .selectFrom('mcp_sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      scope: row.scope,
      ...(row.owner ? { owner: row.owner } : {}),
      ...(row.client_ip ? { clientIp: row.client_ip } : {}),
      protocolVersion: row.protocol_version,
      ...(row.client_info ? { clientInfo: JSON.parse(row.client_info) } : {}),
      clientCapabilities: JSON.parse(row.client_capabilities),
      ...(row.log_level ? { logLevel: row.log_level } : {}),
      subscriptions: JSON.parse(row.subscriptions),
      createdAt: Number(row.created_at),
      lastSeenAt: Number(row.last_seen_at),
    };
  }

  async touch(ids: string | string[], now: number): Promise<void> {
    const list = typeof ids === 'string' ? [ids] : ids;
    for (let i = 0; i < list.length; i += 500) {
      await this.db
        .updateTable('mcp_sessions')
        .set({ last_seen_at: now })
        .where('id', 'in', list.slice(i, i + 500))
        .execute();
    }
  }

  async update(
    id: string,
    patch: Partial<Pick<SessionRecord, 'logLevel' | 'subscriptions'>>,
  ): Promise<void> {
    const set: { log_level?: string | null; subscriptions?: string } = {};
    if ('logLevel' in patch) set.log_level = patch.logLevel ?? null;
    if (patch.subscriptions) set.subscriptions = JSON.stringify(patch.subscriptions);
    if (!Object.keys(set).length) return;
    await this.db.transaction().execute(async (trx) => {
      const session = await trx
        .updateTable('mcp_sessions')
        .set(set)
        .where('id', '=', id)
        .returning('scope')
        .executeTakeFirst();
      if (!session || !patch.subscriptions) return;
      await trx.deleteFrom('mcp_subscriptions').where('session_id', '=', id).execute();
      if (patch.subscriptions.length) {
        await trx
          .insertInto('mcp_subscriptions')
          .values(patch.subscriptions.map((uri) => ({ session_id: id, scope: session.scope, uri })))
          .execute();
      }
    });
  }

  async delete(id: string): Promise<boolean> {
    return (await this.deleteMany([id])) > 0;
  }

  /** Deletes sessions with their streams, events and subscriptions (not relying on cascades). */
  private async deleteMany(ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('mcp_events').where('session_id', 'in', ids).execute();
      await trx.deleteFrom('mcp_streams').where('session_id', 'in', ids).execute();
      await trx.deleteFrom('mcp_subscriptions').where('session_id', 'in', ids).execute();
      const r = await trx.deleteFrom('mcp_sessions').where('id', 'in', ids).executeTakeFirst();
      return Number(r.numDeletedRows);
    });
  }

  /** Drops the longest-idle sessions of one address or owner until one more fits within `cap`. */
  private async makeRoom(column: 'client_ip' | 'owner', value: string, cap: number): Promise<void> {
    const rows = await this.db
      .selectFrom('mcp_sessions')
      .select('id')
      .where(column, '=', value)
      .orderBy('last_seen_at', 'desc')
      .offset(cap - 1)
      .limit(1000)
      .execute();
    await this.deleteMany(rows.map((r) => r.id));
  }

  async listIds(scope: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('mcp_sessions')
      .select('id')
      .where('scope', '=', scope)
      .execute();
    return rows.map((r) => r.id);
  }

  async subscribers(scope: string, uri: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('mcp_subscriptions')
      .select('session_id')
      .where('scope', '=', scope)
      .where('uri', '=', uri)
      .execute();
    return rows.map((r) => r.session_id);
  }

  async openStream(sessionId: string, streamId: string): Promise<void> {
    await this.ensureStream(this.db, sessionId, streamId);
  }

  async appendEvent(sessionId: string, streamId: string, message: JsonRpcMessage): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.ensureStream(trx, sessionId, streamId))) return `${streamId}.0`;
      const { next_seq: seq } = await trx
        .updateTable('mcp_streams')
        .set((eb) => ({ next_seq: eb('next_seq', '+', 1) }))
        .where('session_id', '=', sessionId)
        .where('stream_id', '=', streamId)
        .returning('next_seq')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('mcp_events')
        .values({
          session_id: sessionId,
          stream_id: streamId,
          seq,
          message: JSON.stringify(message),
        })
        .execute();
      if (seq > this.limits.maxEventsPerStream) {
        await trx
          .deleteFrom('mcp_events')
          .where('session_id', '=', sessionId)
          .where('stream_id', '=', streamId)
          .where('seq', '<=', seq - this.limits.maxEventsPerStream)
          .execute();
      }
      return `${streamId}.${seq}`;
    });
  }

  async eventsAfter(
    sessionId: string,
    eventId: string,
  ): Promise<{ streamId: string; events: StoredEvent[]; finished: boolean } | undefined> {
    const streamId = streamOfEvent(eventId);
    if (!streamId) return undefined;
    const seq = Number(eventId.slice(streamId.length + 1));
    if (!Number.isInteger(seq)) return undefined;
    const stream = await this.db
      .selectFrom('mcp_streams')
      .select('finished')
      .where('session_id', '=', sessionId)
      .where('stream_id', '=', streamId)
      .executeTakeFirst();
    if (!stream) return undefined;
    const rows = await this.db
      .selectFrom('mcp_events')
      .select(['seq', 'message'])
      .where('session_id', '=', sessionId)
      .where('stream_id', '=', streamId)
      .where('seq', '>', seq)
      .orderBy('seq')
      .execute();
    return {
      streamId,
      events: rows.map((r) => ({ id: `${streamId}.${r.seq}`, message: JSON.parse(r.message) })),
      finished: Number(stream.finished) === 1,
    };
  }

  async finishStream(sessionId: string, streamId: string): Promise<void> {
    await this.db
      .updateTable('mcp_streams')
      .set({ finished: 1 })
      .where('session_id', '=', sessionId)
      .where('stream_id', '=', streamId)
      .execute();
  }

  async sweep(idleBefore: number, batch: number): Promise<number> {
    const idle = await this.db
      .selectFrom('mcp_sessions')
      .select('id')
      .where('last_seen_at', '<', idleBefore)
      .orderBy('last_seen_at')
      .limit(batch)
      .execute();
    let ids = idle.map((r) => r.id);
    if (ids.length < batch) {
      const over = Math.min(
        batch - ids.length,
        (await this.count()) - ids.length - this.limits.maxSessions,
      );
      if (over > 0) {
        const oldest = await this.db
          .selectFrom('mcp_sessions')
          .select('id')
          .where('last_seen_at', '>=', idleBefore)
          .orderBy('last_seen_at')
          .limit(over)
          .execute();
        ids = ids.concat(oldest.map((r) => r.id));
      }
    }
    return this.deleteMany(ids);
  }

  async count(): Promise<number> {
    const r = await this.db
      .selectFrom('mcp_sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async sharedSecret(): Promise<Buffer> {
    this.secret ??= (async () => {
      const name = 'mrtr-request-state';
      await this.db
        .insertInto('mcp_secrets')
        .values({ name, value: randomBytes(32).toString('base64') })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await this.db
        .selectFrom('mcp_secrets')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return Buffer.from(row.value, 'base64');
    })();
    return this.secret;
  }

  /** Creates the stream row if missing; false when the session does not exist. */
  private async ensureStream(
    db: Kysely<Database>,
    sessionId: string,
    streamId: string,
  ): Promise<boolean> {
    const session = await db
      .selectFrom('mcp_sessions')
      .select('id')
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (!session) return false;
    await db
      .insertInto('mcp_streams')
      .values({
        session_id: sessionId,
        stream_id: streamId,
        next_seq: 0,
        finished: 0,
        created_at: Date.now(),
      })
      .onConflict((oc) => oc.columns(['session_id', 'stream_id']).doNothing())
      .execute();
    return true;
  }
}
