// One-process SessionStore. Bounded: at most `maxSessions` sessions (the longest idle is dropped
// first), the caps per address and per owner, and `maxEventsPerStream` events per stream. Indexed
// like the database store: subscribers by resource, sessions by address and by owner.
import { randomBytes } from 'node:crypto';
import {
  streamOfEvent,
  type JsonRpcMessage,
  type SessionCaps,
  type SessionRecord,
  type SessionStore,
  type StoredEvent,
} from './session-store.ts';

type StreamLog = { seq: number; events: StoredEvent[]; finished: boolean };
type Entry = { session: SessionRecord; streams?: Map<string, StreamLog> };

export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Entry>();
  /** "<scope>\0<uri>" → subscribed session ids; "ip:<address>" / "owner:<hash>" → session ids. */
  private readonly index = new Map<string, Set<string>>();
  private readonly secret = randomBytes(32);

  constructor(
    private readonly limits = {
      maxSessions: 100_000,
      maxEventsPerStream: 200,
      maxStreamsPerSession: 32,
    },
  ) {}

  async create(session: SessionRecord, caps?: SessionCaps): Promise<void> {
    if (caps) {
      if (session.clientIp) this.makeRoom(`ip:${session.clientIp}`, caps.perClientIp);
      if (session.owner) this.makeRoom(`owner:${session.owner}`, caps.perOwner);
    }
    if (this.sessions.size >= this.limits.maxSessions)
      this.drop(this.sessions.keys().next().value!);
    this.sessions.set(session.id, { session: { ...session, subscriptions: [] } });
    if (session.clientIp) this.add(`ip:${session.clientIp}`, session.id);
    if (session.owner) this.add(`owner:${session.owner}`, session.id);
    if (session.subscriptions.length)
      await this.update(session.id, { subscriptions: session.subscriptions });
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    return this.sessions.get(id)?.session;
  }

  async touch(ids: string | string[], now: number): Promise<void> {
    for (const id of typeof ids === 'string' ? [ids] : ids) {
      const entry = this.sessions.get(id);
      if (!entry) continue;
      entry.session.lastSeenAt = now;
      // Map order doubles as an LRU list: re-insert to move the session to the end.
      this.sessions.delete(id);
      this.sessions.set(id, entry);
    }
  }

  async update(
    id: string,
    patch: Partial<Pick<SessionRecord, 'logLevel' | 'subscriptions'>>,
  ): Promise<void> {
    const entry = this.sessions.get(id);
    if (!entry) return;
    if (patch.subscriptions) {
      for (const uri of entry.session.subscriptions)
        this.remove(`${entry.session.scope}\u0000${uri}`, id);
      for (const uri of patch.subscriptions) this.add(`${entry.session.scope}\u0000${uri}`, id);
    }
    entry.session = { ...entry.session, ...patch };
  }

  async delete(id: string): Promise<boolean> {
    return this.drop(id);
  }

  async listIds(scope: string): Promise<string[]> {
    const ids: string[] = [];
    for (const [id, { session }] of this.sessions) if (session.scope === scope) ids.push(id);
    return ids;
  }

  async subscribers(scope: string, uri: string): Promise<string[]> {
    return [...(this.index.get(`${scope}\u0000${uri}`) ?? [])];
  }

  async openStream(sessionId: string, streamId: string): Promise<void> {
    this.streamLog(sessionId, streamId);
  }

  async appendEvent(sessionId: string, streamId: string, message: JsonRpcMessage): Promise<string> {
    const log = this.streamLog(sessionId, streamId);
    if (!log) return `${streamId}.0`;
    const id = `${streamId}.${++log.seq}`;
    log.events.push({ id, message });
    if (log.events.length > this.limits.maxEventsPerStream) log.events.shift();
    return id;
  }

  private streamLog(sessionId: string, streamId: string): StreamLog | undefined {
    const entry = this.sessions.get(sessionId);
    if (!entry) return undefined;
    entry.streams ??= new Map();
    let log = entry.streams.get(streamId);
    if (!log) {
      if (entry.streams.size >= this.limits.maxStreamsPerSession) {
        // Forget the oldest finished stream first, else the oldest of all.
        const victim =
          [...entry.streams].find(([, l]) => l.finished)?.[0] ?? entry.streams.keys().next().value!;
        entry.streams.delete(victim);
      }
      log = { seq: 0, events: [], finished: false };
      entry.streams.set(streamId, log);
    }
    return log;
  }

  async eventsAfter(sessionId: string, eventId: string) {
    const streamId = streamOfEvent(eventId);
    const log = streamId ? this.sessions.get(sessionId)?.streams?.get(streamId) : undefined;
    if (!streamId || !log) return undefined;
    const seq = Number(eventId.slice(streamId.length + 1));
    return {
      streamId,
      events: log.events.filter((e) => Number(e.id.slice(streamId.length + 1)) > seq),
      finished: log.finished,
    };
  }

  async finishStream(sessionId: string, streamId: string): Promise<void> {
    const log = this.sessions.get(sessionId)?.streams?.get(streamId);
    if (log) log.finished = true;
  }

  async sweep(idleBefore: number, batch: number): Promise<number> {
    let n = 0;
    // Map order is least recently used first: stop at the first session still in use.
    for (const [id, { session }] of this.sessions) {
      if (n >= batch || session.lastSeenAt >= idleBefore) break;
      this.drop(id);
      n++;
    }
    return n;
  }

  async count(): Promise<number> {
    return this.sessions.size;
  }

  async sharedSecret(): Promise<Buffer> {
    return this.secret;
  }

  /** Drops the longest-idle sessions under `key` until one more fits within `cap`. */
  private makeRoom(key: string, cap: number): void {
    const ids = this.index.get(key);
    while (ids && ids.size >= cap) {
      let oldest: SessionRecord | undefined;
      for (const id of ids) {
        const s = this.sessions.get(id)?.session;
        if (s && (!oldest || s.lastSeenAt < oldest.lastSeenAt)) oldest = s;
      }
      if (!oldest) break;
      this.drop(oldest.id);
    }
  }

  private drop(id: string): boolean {
    const entry = this.sessions.get(id);
    if (!entry) return false;
    this.sessions.delete(id);
    const s = entry.session;
    for (const uri of s.subscriptions) this.remove(`${s.scope}\u0000${uri}`, id);
    if (s.clientIp) this.remove(`ip:${s.clientIp}`, id);
    if (s.owner) this.remove(`owner:${s.owner}`, id);
    return true;
  }

  private add(key: string, id: string): void {
    let set = this.index.get(key);
    if (!set) this.index.set(key, (set = new Set()));
    set.add(id);
  }

  private remove(key: string, id: string): void {
    const set = this.index.get(key);
    if (set?.delete(id) && set.size === 0) this.index.delete(key);
  }
}
