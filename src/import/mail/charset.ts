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

// Node 20's TextDecoder decodes windows-1252 (which WHATWG also uses for "iso-8859-1" and "ascii"
// labels) as plain latin1, leaving 0x80–0x9F as C1 controls instead of “ ” – € …; this table fixes
// those 32 bytes. Undefined positions stay as their latin1 code point.
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
  0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
  0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    out += String.fromCharCode(
      ...Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b)),
    );
  }
  return out;
}

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label, { fatal: false });
  } catch {
    return undefined;
  }
}

/** Decodes bytes in the given charset (case-insensitive label, tolerant of junk around it). */
export function decodeBytes(bytes: Uint8Array, charset: string | undefined): string {
  const label = (charset ?? '')
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, '');
  const mapped = ALIASES[label] ?? label;
  if (!mapped || mapped === 'utf-8' || mapped === 'utf8') return decodeUtf8OrLegacy(bytes);
  const decoder = decoderFor(mapped);
  if (!decoder || decoder.encoding === 'windows-1252') return decodeWindows1252(bytes);
  return decoder.decode(bytes);
}

/** UTF-8 when the bytes are valid UTF-8, windows-1252 otherwise (common for undeclared 8-bit mail). */
export function decodeUtf8OrLegacy(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

/** A latin1 "binary string" (one char per byte) back to its bytes. */
export function binaryToBytes(binary: string): Buffer {
  return Buffer.from(binary, 'latin1');
}
