// When a failed delivery is tried again: exponential backoff from a base (1 minute in production),
// doubling per attempt, capped at 5 hours, each delay jittered by ±20% so that an endpoint that was
// down is not hit by every retry at the same instant. With the defaults, 13 attempts span about a
// day (1, 2, 4, … 256 minutes, then 5 h three times) before the delivery is marked failed.
export type RetryPolicy = { baseMs: number; maxDelayMs: number; maxAttempts: number };

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 60_000,
  maxDelayMs: 5 * 3_600_000,
  maxAttempts: 13,
};

/** The wait after the `attempt`-th failed attempt (1-based), or null when no attempt is left. */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.maxAttempts) return null;
  const nominal = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.round(nominal * (0.8 + 0.4 * random()));
}
