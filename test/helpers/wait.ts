// Polling with a deadline, instead of a fixed sleep: a test waits exactly as long as the thing it
// waits for takes, and on a loaded machine it waits longer rather than failing.
//
//   await waitFor(() => updates.length >= 2, { message: 'two resource updates' });
//   const row = await waitFor(async () => store.get(id), { timeoutMs: 10_000 });
//
// The check may be sync or async; waitFor resolves with its first truthy answer and fails, naming
// `message`, when none came before the deadline (a check that throws fails at once).

export type WaitOptions = {
  /** How long to keep trying (default 5 s). */
  timeoutMs?: number;
  /** Pause between tries (default 20 ms). */
  intervalMs?: number;
  /** What was waited for, for the error (a function: read when it fails, with the state then). */
  message?: string | (() => string);
};

export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: WaitOptions = {},
): Promise<NonNullable<T>> {
  const { timeoutMs = 5000, intervalMs = 20, message = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() >= deadline) {
      const what = typeof message === 'function' ? message() : message;
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await pause(Math.min(intervalMs, Math.max(1, deadline - Date.now())));
  }
}

/** A pause that is not a wait for anything: only between the tries of a poll or a retry. */
export async function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
