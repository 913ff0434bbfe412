// One outbound webhook request: a POST through the guarded client (public addresses only unless
// allowed, no redirects, one deadline), reported as a delivery attempt. A 3xx is a failed attempt;
// the receiver's answer is kept as a short excerpt for the delivery log. A target the guard refuses
// by policy (not a public address) is reported as such: that refusal is final, not a failure to retry.
import { guardedRequest, RequestRefused } from '../outbound/guarded-request.ts';

export type SendResult = {
  status: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
  /** The target was refused by policy (not a public address): the same on every attempt. */
  refused?: boolean;
  /** The send was given up (the dispatcher is stopping): not an attempt, to be sent again. */
  stopped?: boolean;
};
export type SendOptions = { timeoutMs: number; allowPrivate: boolean };

const EXCERPT_CHARS = 1_000;
const MAX_READ_BYTES = 64 * 1024;

/** POSTs `body` to `url`; never throws (failures come back as an error text). */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
  signal?: AbortSignal,
): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const response = await guardedRequest(new URL(url), {
      method: 'POST',
      headers,
      body,
      ...options,
      ...(signal ? { signal } : {}),
      maxBytes: MAX_READ_BYTES,
      overflow: 'truncate',
    });
    const { status } = response;
    const error =
      status >= 300 && status < 400
        ? `Redirect to ${response.headers.location ?? '(no location)'} not followed: point the endpoint at the final URL.`
        : null;
    return done({ status, error, excerpt: response.body.toString('utf8').slice(0, EXCERPT_CHARS) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const refused = err instanceof RequestRefused && err.reason === 'address';
    const stopped = err instanceof RequestRefused && err.reason === 'stopped';
    return done({
      status: null,
      error: refused ? `Refused: ${message}` : message,
      excerpt: null,
      ...(refused ? { refused } : {}),
      ...(stopped ? { stopped } : {}),
    });
  }
}
