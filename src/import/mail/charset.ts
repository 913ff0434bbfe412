// Bytes → text for a declared charset, through TextDecoder (Node ships full ICU). Mail in the wild
// mislabels charsets: unknown labels fall back to windows-1252 (a superset of latin1 that never
// fails), and "us-ascii" text with 8-bit bytes is read as UTF-8 when valid, else windows-1252.

const ALIASES: Record<string, string> = {
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'ansi_x3.4-1968': 'utf-8',
  latin1: 'iso-8859-1',
  'iso8859-1': 'iso-8859-1',
  'iso_8859-1': 'iso-8859-1',
  'x-user-defined': 'windows-1252',
  unknown: 'windows-1252',
  'unknown-8bit': 'windows-1252',
  'x-unknown': 'windows-1252',
  default: 'windows-1252',
};

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label, { fatal: false });
  } catch {
    return undefined;
  }
}

/** Decodes bytes in the given charset (case-insensitive label, tolerant of junk around it). */
export function decodeBytes(bytes: Uint8Array, charset: string | undefined): string {
  const label = (charset ?? '').trim().toLowerCase().replace(/^["']|["']$/g, '');
  const mapped = ALIASES[label] ?? label;
  if (!mapped || mapped === 'utf-8' || mapped === 'utf8') return decodeUtf8OrLegacy(bytes);
  return (decoderFor(mapped) ?? new TextDecoder('windows-1252')).decode(bytes);
}

/** UTF-8 when the bytes are valid UTF-8, windows-1252 otherwise (common for undeclared 8-bit mail). */
export function decodeUtf8OrLegacy(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** A latin1 "binary string" (one char per byte) back to its bytes. */
export function binaryToBytes(binary: string): Buffer {
  return Buffer.from(binary, 'latin1');
}
