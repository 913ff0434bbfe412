// MCP session state behind an interface, so that it can live in one process (InMemorySessionStore,
// ./memory-sessions.ts) or in a database shared by every instance (an application supplies that
// adapter). A session is small: its id, the endpoint it belongs to, what was negotiated, and what
// the client asked to hear about. Stream events are kept per stream, bounded, so a client can
// resume with Last-Event-ID.
/** A JSON-RPC message as stored: the store keeps it opaque. */
export type JsonRpcMessage = { jsonrpc: '2.0' } & Record<string, unknown>;

export type SessionRecord = {
  id: string;
  /** The endpoint (host) the session was created on; it is refused anywhere else. */
  scope: string;
  protocolVersion: string;
  clientInfo?: { name?: string; version?: string };
  clientCapabilities: Record<string, unknown>;
  /** An MCP logging level (debug … emergency), set by logging/setLevel. */
  logLevel?: string;
  subscriptions: string[];
  createdAt: number;
  lastSeenAt: number;
};

export type StoredEvent = { id: string; message: JsonRpcMessage };

export interface SessionStore {
  create(session: SessionRecord): Promise<void>;
  get(id: string): Promise<SessionRecord | undefined>;
  /** Marks the session as used now; cheap enough to call on every request. */
  touch(id: string, now: number): Promise<void>;
  update(id: string, patch: Partial<Pick<SessionRecord, 'logLevel' | 'subscriptions'>>): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Ids of the live sessions of one scope (for list_changed and resources/updated fan-out). */
  listIds(scope: string): Promise<string[]>;
  /** Starts an empty event log for a stream, so that a resume before its first event finds it. */
  openStream(sessionId: string, streamId: string): Promise<void>;
  /** Appends a message to a stream's log and returns its event id. */
  appendEvent(sessionId: string, streamId: string, message: JsonRpcMessage): Promise<string>;
  /** The stream an event id belongs to and the events after it, or undefined when unknown/expired. */
  eventsAfter(sessionId: string, eventId: string): Promise<{ streamId: string; events: StoredEvent[]; finished: boolean } | undefined>;
  finishStream(sessionId: string, streamId: string): Promise<void>;
  /** Drops sessions idle since before `idleBefore`; returns how many. */
  sweep(idleBefore: number): Promise<number>;
  count(): Promise<number>;
}

/** Event ids are "<streamId>.<seq>": the stream is recoverable from the id alone. */
export function streamOfEvent(eventId: string): string | undefined {
  const dot = eventId.lastIndexOf('.');
  return dot > 0 ? eventId.slice(0, dot) : undefined;
}
