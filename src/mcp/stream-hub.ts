// Every message sent on a session's SSE streams goes through here: it gets an event id, is kept in
// the session's event log (so a client can resume with Last-Event-ID), and is written to the stream's
// live connection if one is open in this process. The standalone stream (GET) is "main"; each POST
// that upgraded to SSE has its own stream id.
import { randomBytes } from 'node:crypto';
import type { JsonRpcMessage } from './jsonrpc.ts';
import { streamOfEvent, type SessionStore } from './session-store.ts';
import { localBus, type McpBus } from './bus.ts';
import type { SseSink } from './sse.ts';

export const STANDALONE_STREAM = 'main';

export class StreamHub {
  private readonly live = new Map<string, SseSink>();

  constructor(
    private readonly store: SessionStore,
    private readonly bus: McpBus = localBus,
  ) {
    bus.subscribe((m) => {
      if (m.t === 'event') void this.catchUp(m.session, m.stream, m.final);
      else if (m.t === 'closed') this.closeSession(m.session, false);
      else if (m.t === 'resync') void this.catchUpAll();
    });
  }

  newStreamId(): string {
    return randomBytes(6).toString('base64url');
  }

  async open(sessionId: string, streamId: string): Promise<void> {
    await this.store.openStream(sessionId, streamId);
  }

  /**
   * Opens the session's standalone stream on `sink`: only events logged from now on are sent, and
   * the priming event carries the current position so a later resume starts from here.
   */
  async openStandalone(
    sessionId: string,
    sink: SseSink,
    prime: { retryMs: number } | undefined,
  ): Promise<void> {
    await this.store.openStream(sessionId, STANDALONE_STREAM);
    const logged = await this.store.eventsAfter(sessionId, `${STANDALONE_STREAM}.0`);
    const last = logged?.events.at(-1)?.id;
    const seq = last ? Number(last.slice(STANDALONE_STREAM.length + 1)) : 0;
    sink.markWritten(seq);
    if (prime) sink.prime(`${STANDALONE_STREAM}.${seq}`, prime.retryMs);
    this.attach(sessionId, STANDALONE_STREAM, sink);
  }

  /** Makes `sink` the live connection of a stream, closing any earlier one. */
  attach(sessionId: string, streamId: string, sink: SseSink): void {
    const key = liveKey(sessionId, streamId);
    const previous = this.live.get(key);
    if (previous && previous !== sink) previous.end();
    this.live.set(key, sink);
    sink.onClose = () => {
      if (this.live.get(key) === sink) this.live.delete(key);
    };
  }

  detach(sessionId: string, streamId: string): void {
    const key = liveKey(sessionId, streamId);
    const sink = this.live.get(key);
    this.live.delete(key);
    sink?.end();
  }

  /** Logs and (if connected) writes one message; `final` ends the stream after it. */
  async deliver(
    sessionId: string,
    streamId: string,
    message: JsonRpcMessage,
    final = false,
  ): Promise<void> {
    const eventId = await this.store.appendEvent(sessionId, streamId, message);
    const sink = this.live.get(liveKey(sessionId, streamId));
    sink?.send(eventId, message);
    if (final) {
      await this.store.finishStream(sessionId, streamId);
      if (sink) this.detach(sessionId, streamId);
    }
    // Another instance may hold this stream's connection (a client resumed there).
    if (!sink) this.bus.publish({ t: 'event', session: sessionId, stream: streamId, final });
  }

  /** Another instance logged events on a stream whose connection we hold: send what we lack. */
  private async catchUp(sessionId: string, streamId: string, final: boolean): Promise<void> {
    const sink = this.live.get(liveKey(sessionId, streamId));
    if (!sink) return;
    const found = await this.store.eventsAfter(
      sessionId,
      `${streamId}.${Math.max(0, sink.lastWrittenSeq)}`,
    );
    for (const e of found?.events ?? []) sink.send(e.id, e.message as JsonRpcMessage);
    if (final && found?.finished) this.detach(sessionId, streamId);
  }

  /**
   * After the bus was down: every stream held here gets what other instances logged for it
   * meanwhile, and the streams of sessions deleted meanwhile end.
   */
  private async catchUpAll(): Promise<void> {
    for (const key of [...this.live.keys()]) {
      const [sessionId, streamId] = key.split('\u0000') as [string, string];
      const sink = this.live.get(key);
      if (!sink) continue;
      const found = await this.store
        .eventsAfter(sessionId, `${streamId}.${Math.max(0, sink.lastWrittenSeq)}`)
        .catch(() => null); // the store is unreachable: the next resync or event catches up
      if (found === null) continue;
      for (const e of found?.events ?? []) sink.send(e.id, e.message as JsonRpcMessage);
      if (!found || found.finished) this.detach(sessionId, streamId);
    }
  }

  /** Ends a stream that has nothing more to say (its request was cancelled). */
  async end(sessionId: string, streamId: string): Promise<void> {
    await this.store.finishStream(sessionId, streamId);
    this.detach(sessionId, streamId);
  }

  /** Outbox for server-initiated messages: the session's standalone stream. */
  readonly toSession = (sessionId: string, message: JsonRpcMessage): Promise<void> =>
    this.deliver(sessionId, STANDALONE_STREAM, message);

  /**
   * Resumes after `lastEventId`: replays what followed it, then keeps `sink` as the stream's live
   * connection unless the stream already finished. Returns false when the id is unknown.
   */
  async resume(sessionId: string, lastEventId: string, sink: SseSink): Promise<boolean> {
    const streamId = streamOfEvent(lastEventId);
    if (!streamId) return false;
    // Attach before reading the log, holding live events until the replay is written, so that an
    // event delivered meanwhile is neither lost nor sent twice.
    sink.hold();
    this.attach(sessionId, streamId, sink);
    const found = await this.store.eventsAfter(sessionId, lastEventId);
    if (!found) {
      this.live.delete(liveKey(sessionId, streamId));
      sink.release();
      return false;
    }
    for (const e of found.events) sink.write(e.id, e.message as JsonRpcMessage);
    sink.release();
    if (found.finished) this.detach(sessionId, streamId);
    return true;
  }

  /** Ends every live stream of a session (DELETE, expiry), here and, if `tell`, on other instances. */
  closeSession(sessionId: string, tell = true): void {
    if (tell) this.bus.publish({ t: 'closed', session: sessionId });
    const prefix = `${sessionId}\u0000`;
    for (const [key, sink] of this.live) {
      if (key.startsWith(prefix)) {
        this.live.delete(key);
        sink.end();
      }
    }
  }

  liveSessionIds(): Set<string> {
    return new Set([...this.live.keys()].map((k) => k.slice(0, k.indexOf('\u0000'))));
  }

  get liveCount(): number {
    return this.live.size;
  }
}

function liveKey(sessionId: string, streamId: string): string {
  return `${sessionId}\u0000${streamId}`;
}
