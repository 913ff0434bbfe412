// One RFC 822 message → the fields the importer needs. Parsing never throws on bad mail: missing
// or broken headers get sensible fallbacks, so one odd message cannot stop an import.
import { createHash } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';
import { decodeHeaderValue } from './encoded-words.ts';
import { bodyText, header, parseMime, type Headers } from './mime.ts';

export type MailMessage = {
  /** Message-ID with angle brackets, or "sha256:<hex>" of the message when it has none. */
  key: string;
  messageId: string | null;
  /** In-Reply-To first, then References from nearest to farthest: candidate parents in order. */
  parents: string[];
  subject: string;
  from: { name: string; address: string | null };
  /** ISO date; from Date:, else the newest Received:, else the mbox From_ line, else null. */
  date: string | null;
  listId: string | null;
  text: string;
};

const ANGLE_ID = /<([^<>\s]+)>/g;

function ids(value: string | undefined): string[] {
  if (!value) return [];
  return [...value.matchAll(ANGLE_ID)].map((m) => `<${m[1]}>`);
}

export function parseMessage(raw: Buffer): MailMessage {
  // The mbox "From " envelope line is not part of the message; strip it before hashing.
  let binary = raw.toString('latin1');
  let envelopeDate: string | null = null;
  const envelope = /^From \S+\s+(.*)\r?\n/.exec(binary);
  if (envelope) {
    envelopeDate = validDate(envelope[1]);
    binary = binary.slice(envelope[0].length);
  }
  // NUL characters are noise in mail and no database keeps them alike: dropped before parsing (the
  // key of a message without Message-ID still hashes it as it arrived).
  const root = parseMime(binary.replaceAll('\u0000', ''));
  const h = root.headers;
  const messageId = ids(header(h, 'message-id'))[0] ?? null;
  const key = messageId ?? `sha256:${createHash('sha256').update(binary).digest('hex')}`;
  const inReplyTo = ids(header(h, 'in-reply-to'));
  const references = ids((h.get('references') ?? []).join(' ')).reverse();
  const parents = [...new Set([...inReplyTo.slice(0, 1), ...references])].filter(
    (p) => p !== messageId,
  );
  return {
    key,
    messageId,
    parents,
    subject: decodeHeaderValue(header(h, 'subject') ?? ''),
    from: parseFrom(header(h, 'from') ?? header(h, 'sender') ?? ''),
    date: validDate(header(h, 'date')) ?? receivedDate(h) ?? envelopeDate,
    listId: parseListId(header(h, 'list-id')),
    text: bodyText(root, htmlToText),
  };
}

/** "Jane Doe <jane@x.org>", "jane@x.org (Jane Doe)", "\"Doe, Jane\" <jane@x.org>", "jane@x.org". */
export function parseFrom(value: string): { name: string; address: string | null } {
  const decoded = decodeHeaderValue(value);
  let address: string | null = null;
  let name = '';
  const angle = /^(.*)<([^<>]*)>\s*(?:\((.*)\))?\s*$/.exec(decoded);
  if (angle) {
    name = angle[1]!.trim();
    address = angle[2]!.trim() || null;
  } else {
    const comment = /^([^\s()]+@[^\s()]+)\s*\((.*)\)\s*$/.exec(decoded);
    if (comment) {
      address = comment[1]!;
      name = comment[2]!.trim();
    } else if (/^[^\s@]+@[^\s@]+$/.test(decoded.trim())) {
      address = decoded.trim();
    } else {
      name = decoded.trim();
    }
  }
  name = name
    .replace(/^["']+|["']+$/g, '')
    .replace(/\\(.)/g, '$1')
    .trim();
  // A display name that is itself an address (or contains one) would show the address: never do that.
  if (!name || name.includes('@'))
    name = address ? address.split('@')[0]! : name.replace(/\S+@\S+/g, '').trim();
  return { name: name || 'Unknown sender', address: address ? address.toLowerCase() : null };
}

function parseListId(value: string | undefined): string | null {
  if (!value) return null;
  const inside = /<([^>]+)>/.exec(value)?.[1] ?? value.trim();
  return inside.split('.')[0]?.toLowerCase() || null;
}

const EARLIEST = Date.UTC(1980, 0, 1);

function validDate(value: string | undefined | null): string | null {
  if (!value) return null;
  // Drop comments such as "(EDT)" and day names the parser may choke on.
  const cleaned = value
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const time = Date.parse(cleaned);
  if (Number.isNaN(time) || time < EARLIEST || time > Date.now() + 86_400_000) return null;
  return new Date(time).toISOString();
}

function receivedDate(h: Headers): string | null {
  for (const received of h.get('received') ?? []) {
    const date = validDate(received.split(';').pop());
    if (date) return date;
  }
  return null;
}

function htmlToText(html: string): string {
  const withBreaks = html
    .replace(/<(br|\/p|\/div|\/li|\/tr|\/h[1-6])\b[^>]*>/gi, '\n')
    .replace(/<(style|script)\b[^>]*>[\s\S]*?<\/\1>/gi, '');
  return sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n');
}
