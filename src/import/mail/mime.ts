// The MIME structure of an RFC 822 message: header block, transfer encodings, multipart bodies.
// Works on latin1 "binary strings" (one char per byte) so 8-bit content survives until the part's
// charset is known; ./message.ts turns the chosen parts into text.
import { binaryToBytes, decodeBytes } from './charset.ts';

export type Headers = Map<string, string[]>;

export type MimePart = {
  headers: Headers;
  contentType: string; // lower-case "type/subtype"
  params: Record<string, string>; // lower-case names
  /** Decoded body bytes as a binary string (transfer encoding removed). */
  body: string;
  parts: MimePart[]; // for multipart/*
};

/** Splits "headers\n\nbody"; unfolds continuation lines; names lower-cased, values raw. */
export function splitHeaders(binary: string): { headers: Headers; body: string } {
  const text = binary.replace(/\r\n/g, '\n');
  const end = text.search(/\n\n/);
  const head = end >= 0 ? text.slice(0, end) : text;
  const body = end >= 0 ? text.slice(end + 2) : '';
  const headers: Headers = new Map();
  let current: { name: string; value: string } | undefined;
  const flush = () => {
    if (!current) return;
    const list = headers.get(current.name) ?? [];
    list.push(current.value.trim());
    headers.set(current.name, list);
  };
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && current) {
      current.value += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue; // the mbox "From " line and junk
    flush();
    current = { name: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1) };
  }
  flush();
  return { headers, body };
}

export function header(headers: Headers, name: string): string | undefined {
  return headers.get(name)?.[0];
}

/** "text/plain; charset = \"iso-8859-1\"; format=flowed" → type and params (tolerant of spaces). */
export function parseContentType(value: string | undefined): {
  type: string;
  params: Record<string, string>;
} {
  if (!value) return { type: 'text/plain', params: {} };
  const [first = '', ...rest] = splitParams(value);
  const params: Record<string, string> = {};
  for (const piece of rest) {
    const eq = piece.indexOf('=');
    if (eq <= 0) continue;
    const name = piece.slice(0, eq).trim().toLowerCase().replace(/\*$/, '');
    let val = piece.slice(eq + 1).trim();
    if (val.startsWith('"') && val.endsWith('"') && val.length >= 2)
      val = val.slice(1, -1).replace(/\\(.)/g, '$1');
    params[name] = val;
  }
  // Some mailers write "text/plain charset=..." without the semicolon.
  const typeMatch =
    /^([a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+)(?:\s+(\w+)\s*=\s*"?([^";\s]+)"?)?/i.exec(
      first.trim(),
    );
  if (typeMatch?.[2] && typeMatch[3]) params[typeMatch[2].toLowerCase()] ??= typeMatch[3];
  return { type: (typeMatch?.[1] ?? 'text/plain').toLowerCase(), params };
}

function splitParams(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of value) {
    if (ch === '"') quoted = !quoted;
    if (ch === ';' && !quoted) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

export function decodeQuotedPrintable(binary: string): string {
  return binary
    .replace(/[ \t]+$/gm, '') // trailing whitespace is transport padding
    .replace(/=\r?\n/g, '') // soft line breaks
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function decodeTransfer(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === 'quoted-printable') return decodeQuotedPrintable(body);
  if (enc === 'base64')
    return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1');
  return body;
}

const MAX_DEPTH = 8;

/** Parses a whole message (or body part) from its binary string. */
export function parseMime(binary: string, depth = 0): MimePart {
  const { headers, body } = splitHeaders(binary);
  return partFrom(headers, body, depth);
}

function partFrom(headers: Headers, rawBody: string, depth: number): MimePart {
  const { type, params } = parseContentType(header(headers, 'content-type'));
  const part: MimePart = { headers, contentType: type, params, body: '', parts: [] };
  if (type.startsWith('multipart/') && params.boundary && depth < MAX_DEPTH) {
    part.parts = splitMultipart(rawBody, params.boundary).map((p) => parseMime(p, depth + 1));
    return part;
  }
  part.body = decodeTransfer(rawBody, header(headers, 'content-transfer-encoding'));
  return part;
}

function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const lines = body.split('\n');
  const parts: string[] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    const trimmed = line.replace(/\s+$/, '');
    if (trimmed === `${delimiter}--`) {
      if (current) parts.push(current.join('\n'));
      current = undefined;
      break;
    }
    if (trimmed === delimiter) {
      if (current) parts.push(current.join('\n'));
      current = [];
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current.join('\n')); // missing closing delimiter
  return parts;
}

/** A leaf part's text in its charset. */
export function partText(part: MimePart): string {
  return decodeBytes(binaryToBytes(part.body), part.params.charset);
}

/** The readable text of a message: text/plain preferred, HTML converted when it is all there is. */
export function bodyText(part: MimePart, htmlToText: (html: string) => string): string {
  const chosen = chooseText(part);
  if (!chosen) return '';
  const text = partText(chosen);
  if (chosen.contentType === 'text/html') return htmlToText(text);
  return chosen.params.format?.toLowerCase() === 'flowed'
    ? unflow(text, chosen.params.delsp?.toLowerCase() === 'yes')
    : text;
}

function isAttachment(part: MimePart): boolean {
  return /^\s*attachment/i.test(header(part.headers, 'content-disposition') ?? '');
}

function chooseText(part: MimePart): MimePart | undefined {
  if (part.contentType.startsWith('multipart/')) {
    const candidates = part.parts.filter((p) => !isAttachment(p));
    if (part.contentType === 'multipart/alternative') {
      return (
        candidates.find((p) => p.contentType === 'text/plain') ??
        candidates.map(chooseText).find((p) => p !== undefined)
      );
    }
    // mixed, related, signed, …: the first readable part is the message; the rest are attachments.
    for (const child of candidates) {
      const found = chooseText(child);
      if (found) return found;
    }
    return undefined;
  }
  if (isAttachment(part)) return undefined;
  if (part.contentType === 'text/plain' || part.contentType === 'text/html') return part;
  if (part.contentType === 'text/enriched' || part.contentType === 'text/richtext') return part;
  return undefined;
}

/** RFC 3676 format=flowed: a line ending in a space continues on the next line. */
function unflow(text: string, delsp: boolean): string {
  const out: string[] = [];
  let buffer = '';
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    const soft = line.endsWith(' ') && line !== '-- ';
    if (soft) {
      buffer += delsp ? line.slice(0, -1) : line;
    } else {
      out.push(buffer + line);
      buffer = '';
    }
  }
  if (buffer) out.push(buffer);
  return out.join('\n');
}
