// Secrets: key and token generation, hashing and constant-time comparison, password hashing.
// Nothing here logs or stores a secret; callers keep only the hashes this module returns.
import {
  createHash,
  createHmac,
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

export const AGENT_KEY_PREFIX = 'hmlt_live_';
export const USER_KEY_PREFIX = 'hmlt_u_';
/** How much of a key is kept and shown to tell keys apart ("hmlt_live_AbCd", "hmlt_u_AbCdEfG"). */
export const DISPLAY_PREFIX_LENGTH = 14;
const KEY_RANDOM_LENGTH = 40; // 40 base62 characters ≈ 238 bits

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 string: bytes ≥ 248 (= 4 × 62) are rejected, so `b % 62` has no bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(Math.ceil((length - out.length) * 1.1) + 4)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time string equality (lengths are not secret here: both sides are fixed-size digests). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export type MintedKey = { key: string; prefix: string; hash: string };

/** A new key: shown once to its owner; the store keeps `prefix` and `hash` only. */
export function mintKey(kind: 'agent' | 'user'): MintedKey {
  const key =
    (kind === 'agent' ? AGENT_KEY_PREFIX : USER_KEY_PREFIX) + randomBase62(KEY_RANDOM_LENGTH);
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: sha256Hex(key) };
}

export function keyKind(raw: string): 'agent' | 'user' | 'unknown' {
  if (raw.startsWith(AGENT_KEY_PREFIX)) return 'agent';
  if (raw.startsWith(USER_KEY_PREFIX)) return 'user';
  return 'unknown';
}

const KEY_SHAPE = /^(hmlt_live_|hmlt_u_)[0-9A-Za-z]{32,128}$/;
export function wellFormedKey(raw: string): boolean {
  return KEY_SHAPE.test(raw);
}

// — web sessions —

/** A session token for the HttpOnly cookie; the store keeps sha256Hex(token) only. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The CSRF token of a session: HMAC-SHA256 keyed with the session token itself. A page embeds it in
 * its forms; a cross-site request cannot compute it without reading the cookie.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('hamlet-csrf-v1').digest('base64url');
}

export function verifyCsrfToken(
  sessionToken: string,
  presented: string | undefined | null,
): boolean {
  if (!presented) return false;
  return safeEqual(csrfTokenFor(sessionToken), presented);
}

// — passwords (scrypt) —

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 };

async function scrypt(
  password: string,
  salt: Buffer,
  keylen: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, keylen, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** "scrypt$N$r$p$<salt base64>$<hash base64>": salt and parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, SCRYPT.keylen, {
    N: SCRYPT.N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    maxmem: 64 * 1024 * 1024,
  });
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64'),
    hash.toString('base64'),
  ].join('$');
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  const actual = await scrypt(password, salt, expected.length, {
    N,
    r,
    p,
    maxmem: 64 * 1024 * 1024,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spent when the e-mail is unknown, so a failed sign-in takes as long either way. */
let dummyHash: Promise<string> | undefined;
export async function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

// — idempotency —

/** JSON with object keys sorted at every level: equal payloads hash equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
