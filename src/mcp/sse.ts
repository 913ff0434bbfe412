// Server-Sent Events framing on a node ServerResponse: event ids, the priming event of SEP-1699,
// keep-alive comments, and close detection.
import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from './jsonrpc.ts';
import { serialize } from './wire.ts';

const KEEPALIVE_MS = 25_000;

export class SseSink {
  private closed = false;
  private readonly keepalive: NodeJS.Timeout;
  /** While replaying a resumed stream, live events wait here so that order is kept. */
  private held: Array<[string | undefined, JsonRpcMessage]> | undefined;
  private lastSeq = -1;
  onClose?: () => void;

  constructor(
    private readonly res: ServerResponse,
    headers: Record<string, string>,
  ) {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    this.keepalive = setInterval(() => this.raw(': keepalive\n\n'), KEEPALIVE_MS);
    this.keepalive.unref();
    res.on('close', () => this.markClosed());
  }

  /** Treats every event up to `seq` as already sent (a new stream does not replay history). */
  markWritten(seq: number): void {
    this.lastSeq = Math.max(this.lastSeq, seq);
  }

  /** The sequence number of the last event written (-1 before any). */
  get lastWrittenSeq(): number {
    return this.lastSeq;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** An event with an id and empty data: lets the client resume even before any message. */
  prime(eventId: string, retryMs: number): void {
    this.raw(`id: ${eventId}\nretry: ${retryMs}\ndata: \n\n`);
  }

  send(eventId: string | undefined, message: JsonRpcMessage): void {
    if (this.held) this.held.push([eventId, message]);
    else this.write(eventId, message);
  }

  /** Writes now, even while holding (the replay of a resumed stream); skips what was written. */
  write(eventId: string | undefined, message: JsonRpcMessage): void {
    const seq = eventId ? Number(eventId.slice(eventId.lastIndexOf('.') + 1)) : NaN;
    if (!Number.isNaN(seq)) {
      if (seq <= this.lastSeq) return; // already written by a replay
      this.lastSeq = seq;
    }
    const id = eventId ? `id: ${eventId}\n` : '';
    this.raw(`event: message\n${id}data: ${serialize(message)}\n\n`);
  }

  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const [id, message] of held) this.write(id, message);
  }

  end(): void {
    if (this.closed) return;
    this.markClosed();
    this.res.end();
  }

  private raw(text: string): void {
    if (!this.closed) this.res.write(text);
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepalive);
    this.onClose?.();
  }
}
