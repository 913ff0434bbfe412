// RFC 2047 encoded words in headers: =?charset?Q?...?= and =?charset?B?...?=. Whitespace between
// two adjacent encoded words is dropped (RFC 2047 §6.2); other text is kept as is. Raw 8-bit header
// bytes (illegal but common) are decoded as UTF-8 when valid, else windows-1252.
import { binaryToBytes, decodeBytes, decodeUtf8OrLegacy } from './charset.ts';

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

function decodeQ(text: string): Buffer {
  const binary = text
    .replace(/_/g, ' ')
    .replace(/=([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return binaryToBytes(binary);
}

function decodeWord(charset: string, encoding: string, text: string): string {
  const bytes = encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64') : decodeQ(text);
  return decodeBytes(bytes, charset.split('*')[0]); // RFC 2231 language suffix: "utf-8*en"
}

/** Decodes a header value given as a latin1 binary string (one char per raw byte). */
export function decodeHeaderValue(binary: string): string {
  const raw = /[\x80-\xff]/.test(binary) ? decodeUtf8OrLegacy(binaryToBytes(binary)) : binary;
  let out = '';
  let last = 0;
  let previousWasWord = false;
  for (const match of raw.matchAll(ENCODED_WORD)) {
    const between = raw.slice(last, match.index);
    if (!(previousWasWord && /^\s*$/.test(between))) out += between;
    out += decodeWord(match[1]!, match[2]!, match[3]!);
    last = match.index + match[0].length;
    previousWasWord = true;
  }
  return (out + raw.slice(last)).replace(/\s+/g, ' ').trim();
}
