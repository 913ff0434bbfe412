// The response channel of one POST within a session: plain JSON until the request has something to
// say before its result, then an SSE stream whose events the stream hub logs for resumption.
import type { ServerResponse } from 'node:http';
import { CORS_RESPONSE_HEADERS } from './cors.ts';
import type { Channel } from './engine.ts';
import type { JsonRpcMessage, JsonRpcResponse } from './jsonrpc.ts';
import type { SessionRecord } from './session-store.ts';
import { SseSink } from './sse.ts';
import type { StreamHub } from './stream-hub.ts';
import { sendsPrimingEvents } from './versions.ts';

/**
 * The response channel of one POST within a session. It stays a plain JSON response unless the
 * request sends something before its result, or gives up its stream: then it becomes an SSE stream.
 */
export class PostChannel implements Channel {
  private sink: SseSink | undefined;
  private readonly streamId: string;
  private detached = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly hub: StreamHub,
    private readonly session: SessionRecord,
    private readonly canStream: boolean,
    private readonly retryMs: number,
  ) {
    this.streamId = hub.newStreamId();
  }

  get streaming(): boolean {
    return this.sink !== undefined || this.detached;
  }

  async send(message: JsonRpcMessage): Promise<boolean> {
    if (!this.canStream) {
      // The client takes only JSON on this POST: use the session's standalone stream instead.
      await this.hub.toSession(this.session.id, message);
      return true;
    }
    await this.upgrade();
    await this.hub.deliver(this.session.id, this.streamId, message);
    return true;
  }

  close(): void {
    if (!this.canStream || this.detached) return;
    void this.upgrade().then(() => {
      this.detached = true;
      this.hub.detach(this.session.id, this.streamId);
    });
  }

  async finish(responses: JsonRpcResponse[]): Promise<void> {
    await this.upgradePromise;
    if (responses.length === 0) return this.hub.end(this.session.id, this.streamId); // cancelled
    for (let i = 0; i < responses.length; i++) {
      await this.hub.deliver(
        this.session.id,
        this.streamId,
        responses[i]!,
        i === responses.length - 1,
      );
    }
  }

  private upgradePromise: Promise<void> | undefined;

  private async upgrade(): Promise<void> {
    this.upgradePromise ??= (async () => {
      await this.hub.open(this.session.id, this.streamId);
      this.sink = new SseSink(this.res, {
        ...CORS_RESPONSE_HEADERS,
        'mcp-protocol-version': this.session.protocolVersion,
        'mcp-session-id': this.session.id,
      });
      if (sendsPrimingEvents(this.session.protocolVersion))
        this.sink.prime(`${this.streamId}.0`, this.retryMs);
      this.hub.attach(this.session.id, this.streamId, this.sink);
    })();
    return this.upgradePromise;
  }
}
