// Long-lived event streams cost a connection and memory each, and an open stream keeps its session
// alive: so they are counted per client address and per session, and one over the cap is refused.
export type StreamCaps = { perClientIp: number; perSession: number };

export const DEFAULT_STREAM_CAPS: StreamCaps = { perClientIp: 32, perSession: 4 };

export class StreamLimits {
  private readonly open = new Map<string, number>();

  constructor(readonly caps: StreamCaps = DEFAULT_STREAM_CAPS) {}

  /** Streams open now (each holds one place of its client address). */
  get openCount(): number {
    let n = 0;
    for (const [k, v] of this.open) if (k.startsWith('ip:')) n += v;
    return n;
  }

  /** Takes a place for a stream; the returned function gives it back (call it once, on close). */
  acquire(clientIp: string, sessionId?: string): (() => void) | undefined {
    const keys = [`ip:${clientIp}`, ...(sessionId ? [`session:${sessionId}`] : [])];
    const over = keys.some(
      (k) =>
        (this.open.get(k) ?? 0) >=
        (k.startsWith('ip:') ? this.caps.perClientIp : this.caps.perSession),
    );
    if (over) return undefined;
    for (const k of keys) this.open.set(k, (this.open.get(k) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const k of keys) {
        const n = (this.open.get(k) ?? 1) - 1;
        if (n > 0) this.open.set(k, n);
        else this.open.delete(k);
      }
    };
  }
}
