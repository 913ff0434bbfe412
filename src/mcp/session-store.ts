// MCP session state behind an interface, so that it can live in one process (InMemorySessionStore,
// ./memory-sessions.ts) or in a database shared by every instance (an application supplies that
// adapter). A session is small: its id, the endpoint it belongs to, who opened it, what was
// negotiated, and what the client asked to hear about. Stream events are kept per stream, bounded,
// so a client can resume with Last-Event-ID. Sessions belong to the legacy protocol era; the store
// also keeps the secret every instance seals 2026-era request state with.
/** A JSON-RPC message as stored: the store keeps it opaque. */
export type JsonRpcMessage = { jsonrpc: '2.0' } & Record<string, unknown>;

export type SessionRecord = {
  id: string;
  /** The endpoint (host) the session was created on; it is refused anywhere else. */
  scope: string;
  /** A hash of the credential that opened it; absent for an anonymous session. Only that credential may use it. */
  owner?: string;
  /** The address bucket that opened it (sessions are capped per bucket; see clientAddress). */
  clientIp?: string;
  protocolVersion: string;
  clientInfo?: { name?: string; version?: string; title?: string };
  clientCapabilities: Record<string, unknown>;
  /** An MCP logging level (debug … emergency), set by logging/setLevel. */
  logLevel?: string;
  subscriptions: string[];
  createdAt: number;
  lastSeenAt: number;
};

export type StoredEvent = { id: string; message: JsonRpcMessage };

/** At most this many sessions per client address and per owner; the longest idle make room. */
export type SessionCaps = { perClientIp: number; perOwner: number };

export interface SessionStore {
  /** Stores a new session, first dropping the longest-idle ones of its address or owner beyond `caps`. */
  create(session: SessionRecord, caps?: SessionCaps): Promise<void>;
  get(id: string): Promise<SessionRecord | undefined>;
  /** Marks sessions as used now; cheap enough to call on every request. */
  touch(ids: string | string[], now: number): Promise<void>;
  /** Changes the log level or the subscriptions (which the subscriber index follows). */
  update(
    id: string,
    patch: Partial<Pick<SessionRecord, 'logLevel' | 'subscriptions'>>,
  ): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Ids of the live sessions of one scope (for list_changed fan-out). */
  listIds(scope: string): Promise<string[]>;
  /** Ids of the sessions of `scope` subscribed to `uri`: an index lookup, not a scan of the scope. */
  subscribers(scope: string, uri: string): Promise<string[]>;
  /** Starts an empty event log for a stream, so that a resume before its first event finds it. */
  openStream(sessionId: string, streamId: string): Promise<void>;
  /** Appends a message to a stream's log and returns its event id. */
  appendEvent(sessionId: string, streamId: string, message: JsonRpcMessage): Promise<string>;
  /** The stream an event id belongs to and the events after it, or undefined when unknown/expired. */
  eventsAfter(
    sessionId: string,
    eventId: string,
  ): Promise<{ streamId: string; events: StoredEvent[]; finished: boolean } | undefined>;
  finishStream(sessionId: string, streamId: string): Promise<void>;
  /**
   * Drops up to `batch` sessions idle since before `idleBefore` (or, beyond the store's overall
   * bound, the longest idle); returns how many. Callers repeat while it returns `batch`.
   */
  sweep(idleBefore: number, batch: number): Promise<number>;
  count(): Promise<number>;
  /** A random secret created once and shared by every instance over this store. */
  sharedSecret(): Promise<Buffer>;
}

/** Event ids are "<streamId>.<seq>": the stream is recoverable from the id alone. */
export function streamOfEvent(eventId: string): string | undefined {
  const dot = eventId.lastIndexOf('.');
  return dot > 0 ? eventId.slice(0, dot) : undefined;
}
