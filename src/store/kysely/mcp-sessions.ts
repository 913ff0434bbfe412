// SessionStore over the database (SQLite or PostgreSQL): sessions, their streams and the events
// kept for Last-Event-ID resumption. Bounded like the in-memory store: events per stream are
// trimmed on append, the number of sessions on sweep.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { streamOfEvent, type JsonRpcMessage, type SessionRecord, type SessionStore, type StoredEvent } from '../../mcp/session-store.ts';

type Limits = { maxSessions: number; maxEventsPerStream: number };

export class KyselySessionStore implements SessionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly limits: Limits = { maxSessions: 100_000, maxEventsPerStream: 200 },
  ) {}

  async create(s: SessionRecord): Promise<void> {
    await this.db
      .insertInto('mcp_sessions')
      .values({
        id: s.id,
        scope: s.scope,
        protocol_version: s.protocolVersion,
        client_info: s.clientInfo ? JSON.stringify(s.clientInfo) : null,
        client_capabilities: JSON.stringify(s.clientCapabilities),
        log_level: s.logLevel ?? null,
        subscriptions: JSON.stringify(s.subscriptions),
        created_at: s.createdAt,
        last_seen_at: s.lastSeenAt,
      })
      .execute();
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const row = await this.db.selectFrom('mcp_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      scope: row.scope,
      protocolVersion: row.protocol_version,
      ...(row.client_info ? { clientInfo: JSON.parse(row.client_info) } : {}),
      clientCapabilities: JSON.parse(row.client_capabilities),
      ...(row.log_level ? { logLevel: row.log_level } : {}),
      subscriptions: JSON.parse(row.subscriptions),
      createdAt: Number(row.created_at),
      lastSeenAt: Number(row.last_seen_at),
    };
  }

  async touch(id: string, now: number): Promise<void> {
    await this.db.updateTable('mcp_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
  }

  async update(id: string, patch: Partial<Pick<SessionRecord, 'logLevel' | 'subscriptions'>>): Promise<void> {
    const set: { log_level?: string | null; subscriptions?: string } = {};
    if ('logLevel' in patch) set.log_level = patch.logLevel ?? null;
    if (patch.subscriptions) set.subscriptions = JSON.stringify(patch.subscriptions);
    if (Object.keys(set).length) await this.db.updateTable('mcp_sessions').set(set).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<boolean> {
    // Events and streams go with their session (ON DELETE CASCADE needs SQLite's foreign_keys on,
    // which openStore sets; delete explicitly as well so nothing depends on it).
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('mcp_events').where('session_id', '=', id).execute();
      await trx.deleteFrom('mcp_streams').where('session_id', '=', id).execute();
      const r = await trx.deleteFrom('mcp_sessions').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }

  async listIds(scope: string): Promise<string[]> {
    const rows = await this.db.selectFrom('mcp_sessions').select('id').where('scope', '=', scope).execute();
    return rows.map((r) => r.id);
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
      await trx.insertInto('mcp_events').values({ session_id: sessionId, stream_id: streamId, seq, message: JSON.stringify(message) }).execute();
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

  async eventsAfter(sessionId: string, eventId: string): Promise<{ streamId: string; events: StoredEvent[]; finished: boolean } | undefined> {
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
    await this.db.updateTable('mcp_streams').set({ finished: 1 }).where('session_id', '=', sessionId).where('stream_id', '=', streamId).execute();
  }

  async sweep(idleBefore: number): Promise<number> {
    const idle = await this.db.selectFrom('mcp_sessions').select('id').where('last_seen_at', '<', idleBefore).execute();
    const over = Math.max(0, (await this.count()) - idle.length - this.limits.maxSessions);
    const oldest = over
      ? await this.db.selectFrom('mcp_sessions').select('id').where('last_seen_at', '>=', idleBefore).orderBy('last_seen_at').limit(over).execute()
      : [];
    let n = 0;
    for (const { id } of [...idle, ...oldest]) if (await this.delete(id)) n++;
    return n;
  }

  async count(): Promise<number> {
    const r = await this.db.selectFrom('mcp_sessions').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Creates the stream row if missing; false when the session does not exist. */
  private async ensureStream(db: Kysely<Database>, sessionId: string, streamId: string): Promise<boolean> {
    const session = await db.selectFrom('mcp_sessions').select('id').where('id', '=', sessionId).executeTakeFirst();
    if (!session) return false;
    await db
      .insertInto('mcp_streams')
      .values({ session_id: sessionId, stream_id: streamId, next_seq: 0, finished: 0, created_at: Date.now() })
      .onConflict((oc) => oc.columns(['session_id', 'stream_id']).doNothing())
      .execute();
    return true;
  }
}
