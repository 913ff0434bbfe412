// A credential's last-use time (agent keys, user keys, OAuth connections) is written at most once a
// minute: not when the stored time is that recent, nor when this process wrote it that recently
// (concurrent requests that read the credential before the write landed would each send it again).
// The store's write is conditional too, so instances together change a row at most once a minute.

/** How often a credential's last-use time is written at most. */
export const LAST_USE_EVERY_MS = 60_000;
const REMEMBERED = 10_000;

export class LastUse {
  /** Credential id → when this process last wrote its time (bounded). */
  private readonly written = new Map<string, number>();

  /**
   * Whether to write the last-use time of credential `id` at `now` (`stored`: the time read with
   * the credential); when it answers yes it counts the write as done.
   */
  due(id: string, stored: string | null, now: number): boolean {
    if (stored && now - Date.parse(stored) < LAST_USE_EVERY_MS) return false;
    const wrote = this.written.get(id);
    if (wrote !== undefined && now - wrote < LAST_USE_EVERY_MS && now >= wrote) return false;
    if (this.written.size >= REMEMBERED) {
      for (const [key, at] of this.written)
        if (now - at >= LAST_USE_EVERY_MS) this.written.delete(key);
      if (this.written.size >= REMEMBERED) this.written.clear();
    }
    this.written.set(id, now);
    return true;
  }

  /** The write failed: the next request tries again. */
  failed(id: string): void {
    this.written.delete(id);
  }
}
