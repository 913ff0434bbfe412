// One-process SessionStore. Bounded: at most `maxSessions` sessions (the longest idle is dropped
// first) and `maxEventsPerStream` events per stream.
import { streamOfEvent, type JsonRpcMessage, type SessionRecord, type SessionStore, type StoredEvent } from './session-store.ts';

type StreamLog = { seq: number; events: StoredEvent[]; finished: boolean };
type Entry = { session: SessionRecord; streams?: Map<string, StreamLog> };

export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Entry>();

  constructor(
    private readonly limits = { maxSessions: 100_000, maxEventsPerStream: 200, maxStreamsPerSession: 32 },
  ) {}

  async create(session: SessionRecord): Promise<void> {
    if (this.sessions.size >= this.limits.maxSessions) this.evictOldest();
    this.sessions.set(session.id, { session });
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    return this.sessions.get(id)?.session;
  }

  async touch(id: string, now: number): Promise<void> {
    const entry = this.sessions.get(id);
    if (!entry) return;
    entry.session.lastSeenAt = now;
    // Map order doubles as an LRU list: re-insert to move the session to the end.
    this.sessions.delete(id);
    this.sessions.set(id, entry);
  }

  async update(id: string, patch: Partial<Pick<SessionRecord, 'logLevel' | 'subscriptions'>>): Promise<void> {
    const entry = this.sessions.get(id);
    if (entry) entry.session = { ...entry.session, ...patch };
  }

  async delete(id: string): Promise<boolean> {
    return this.sessions.delete(id);
  }

  async listIds(scope: string): Promise<string[]> {
    const ids: string[] = [];
    for (const [id, { session }] of this.sessions) if (session.scope === scope) ids.push(id);
    return ids;
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
        const victim = [...entry.streams].find(([, l]) => l.finished)?.[0] ?? entry.streams.keys().next().value!;
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
    return { streamId, events: log.events.filter((e) => Number(e.id.slice(streamId.length + 1)) > seq), finished: log.finished };
  }

  async finishStream(sessionId: string, streamId: string): Promise<void> {
    const log = this.sessions.get(sessionId)?.streams?.get(streamId);
    if (log) log.finished = true;
  }

  async sweep(idleBefore: number): Promise<number> {
    let n = 0;
    for (const [id, { session }] of this.sessions) {
      if (session.lastSeenAt < idleBefore) {
        this.sessions.delete(id);
        n++;
      }
    }
    return n;
  }

  async count(): Promise<number> {
    return this.sessions.size;
  }

  private evictOldest(): void {
    const oldest = this.sessions.keys().next().value;
    if (oldest !== undefined) this.sessions.delete(oldest);
  }
}
