// Webhook signatures, both schemes on every delivery, and their verification (receivers, the CLI):
//   hamlet-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
//     where the HMAC key is the secret string exactly as shown ("whsec_…");
//   Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256(key,
//     "<id>.<t>.<body>")> where the key is the base64 part of "whsec_<base64 key>".
// During a secret rotation both the new and the previous secret sign (one v1 per secret).
import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../identity/secrets.ts';

export const SECRET_PREFIX = 'whsec_';
/** Receivers reject a timestamp further than this from their clock. */
export const TOLERANCE_SECONDS = 5 * 60;

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function standardKey(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
}

export function hamletSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function standardSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  return createHmac('sha256', standardKey(secret))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
}

/** The signature headers of one delivery attempt, signed with every given secret. */
export function signatureHeaders(input: {
  secrets: string[];
  deliveryId: string;
  event: string;
  timestamp: number;
  body: string;
}): Record<string, string> {
  const { secrets, deliveryId, timestamp, body } = input;
  return {
    'hamlet-event': input.event,
    'hamlet-delivery': deliveryId,
    'hamlet-signature': [
      `t=${timestamp}`,
      ...secrets.map((s) => `v1=${hamletSignature(s, timestamp, body)}`),
    ].join(','),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets
      .map((s) => `v1,${standardSignature(s, deliveryId, timestamp, body)}`)
      .join(' '),
  };
}

export type Verdict = { ok: true; scheme: 'hamlet' | 'standard' } | { ok: false; reason: string };

/** Checks a received request (lower-case header names) against a secret; says why it fails. */
export function verifySignature(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Verdict {
  const hamlet = headers['hamlet-signature'];
  const standard = headers['webhook-signature'];
  if (!hamlet && !standard)
    return {
      ok: false,
      reason: 'The request carries neither a hamlet-signature nor a webhook-signature header.',
    };
  if (!secret.startsWith(SECRET_PREFIX))
    return {
      ok: false,
      reason: `The secret should start with "${SECRET_PREFIX}" (as printed when the endpoint was added).`,
    };
  const fresh = (t: number) => Number.isFinite(t) && Math.abs(nowSeconds - t) <= TOLERANCE_SECONDS;
  if (hamlet) {
    const parts = hamlet.split(',').map((p) => p.trim().split('=') as [string, string | undefined]);
    const t = Number(parts.find(([k]) => k === 't')?.[1]);
    const given = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
    if (!Number.isInteger(t) || !given.length)
      return {
        ok: false,
        reason: 'hamlet-signature is malformed: expected "t=<unix seconds>,v1=<hex>".',
      };
    if (!fresh(t))
      return {
        ok: false,
        reason: `The timestamp t=${t} is more than ${TOLERANCE_SECONDS} s away from now: a replay, or a clock out of sync.`,
      };
    const expected = hamletSignature(secret, t, body);
    if (given.some((v) => safeEqual(v, expected))) return { ok: true, scheme: 'hamlet' };
    return {
      ok: false,
      reason:
        'hamlet-signature does not match: wrong secret, or the body was changed (verify the raw bytes, before any JSON parsing).',
    };
  }
  const id = headers['webhook-id'];
  const t = Number(headers['webhook-timestamp']);
  if (!id || !Number.isInteger(t))
    return {
      ok: false,
      reason: 'webhook-signature needs webhook-id and webhook-timestamp headers too.',
    };
  if (!fresh(t))
    return {
      ok: false,
      reason: `webhook-timestamp ${t} is more than ${TOLERANCE_SECONDS} s away from now: a replay, or a clock out of sync.`,
    };
  const expected = standardSignature(secret, id, t, body);
  const given = standard!
    .split(' ')
    .map((s) => s.split(','))
    .filter(([v]) => v === 'v1')
    .map(([, sig]) => sig ?? '');
  if (given.some((v) => safeEqual(v, expected))) return { ok: true, scheme: 'standard' };
  return {
    ok: false,
    reason:
      'webhook-signature does not match: wrong secret, or the body was changed (verify the raw bytes).',
  };
}
