// Signed reply addresses. Each notification mail about a topic carries, as its Reply-To, an address
// made for its recipient and that topic: the From address with `+<token>` added to its local part
// (`mail+<token>@hamlet.example`, which an MTA with a `+` recipient delimiter delivers to the From's
// mailbox, piped into `hamlet mail receive`). The token is base32 (lower case: mail systems may
// change the case of a local part) of person id, topic id, the last day it is good for and an
// HMAC-SHA256 over the three (cut to 80 bits) with the installation's key, kept like the webhook
// secret key. Nothing is stored per address; a forged, altered or expired one is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Store } from '../../store/repositories.ts';

/** How long a reply address works after its mail was written. */
export const REPLY_ADDRESS_DAYS = 90;

const DAY = 86_400_000;
const EPOCH = Date.UTC(2020, 0, 1);
const MAC_BYTES = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export type ReplyTarget = { personId: string; topicId: string; expiresAt: number };
export type ReplyCheck =
  | ({ ok: true } & ReplyTarget)
  | { ok: false; reason: 'not_a_reply_address' | 'forged' | 'expired' };

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text.toLowerCase()) {
    const i = ALPHABET.indexOf(ch);
    if (i < 0) return null;
    value = ((value << 5) | i) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (b: Buffer) =>
  b.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

export class ReplyAddresses {
  private key?: string;

  constructor(
    /** The From address whose local part gets `+<token>`. */
    private readonly from: string,
    private readonly loadKey: (via: Store) => Promise<string>,
  ) {}

  /** The reply address of `personId` for `topicId`, good for REPLY_ADDRESS_DAYS from `now`. */
  async address(via: Store, personId: string, topicId: string, now = Date.now()): Promise<string> {
    const day = Math.floor((now - EPOCH) / DAY) + REPLY_ADDRESS_DAYS;
    const body = Buffer.concat([uuidBytes(personId), uuidBytes(topicId), Buffer.alloc(2)]);
    body.writeUInt16BE(Math.min(day, 0xffff), 32);
    const token = base32(Buffer.concat([body, await this.mac(via, body)]));
    const [local, domain] = this.mailbox();
    return `${local}+${token}@${domain}`;
  }

  /** Whether `address` is one of ours, unaltered and not expired; whose and for which topic. */
  async check(via: Store, address: string, now = Date.now()): Promise<ReplyCheck> {
    const [local, domain] = this.mailbox();
    const m = /^([^@+\s]+)\+([a-z2-7]+)@([^@\s]+)$/i.exec(address.trim());
    if (!m || m[1]!.toLowerCase() !== local.toLowerCase() || m[3]!.toLowerCase() !== domain)
      return { ok: false, reason: 'not_a_reply_address' };
    const bytes = unbase32(m[2]!);
    if (!bytes || bytes.length !== 34 + MAC_BYTES) return { ok: false, reason: 'forged' };
    const body = bytes.subarray(0, 34);
    if (!timingSafeEqual(bytes.subarray(34), await this.mac(via, body)))
      return { ok: false, reason: 'forged' };
    const expiresAt = EPOCH + (body.readUInt16BE(32) + 1) * DAY;
    if (now >= expiresAt) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      personId: uuidOf(body.subarray(0, 16)),
      topicId: uuidOf(body.subarray(16, 32)),
      expiresAt,
    };
  }

  /** Of the addresses a message was sent to, the one that looks like a reply address of ours. */
  pick(addresses: string[]): string | undefined {
    const [local, domain] = this.mailbox();
    return addresses.find((a) => {
      const [l, d] = a.toLowerCase().split('@');
      return d === domain && l?.startsWith(`${local.toLowerCase()}+`);
    });
  }

  private mailbox(): [string, string] {
    const bare = /<([^<>]+)>/.exec(this.from)?.[1] ?? this.from;
    const at = bare.lastIndexOf('@');
    return [
      bare.slice(0, at).trim(),
      bare
        .slice(at + 1)
        .trim()
        .toLowerCase(),
    ];
  }

  private async mac(via: Store, body: Buffer): Promise<Buffer> {
    const key = (this.key ??= await this.loadKey(via));
    return createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);
  }
}
