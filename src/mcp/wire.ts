// Reading and writing JSON-RPC bodies. Nesting depth is bounded before anything touches a parsed
// message (a deeply nested value would otherwise overflow the stack of whatever walks it), and an
// integer id too large for a JavaScript number is echoed digit for digit, as JSON-RPC requires.

/** Deeper JSON than this is refused as an invalid request: no MCP message needs more. */
export const MAX_JSON_DEPTH = 64;

/**
 * An id that lost precision in JSON.parse travels through the server as this string plus its digits,
 * and is written back as the bare number. The invisible separator makes a collision with a real
 * client id implausible.
 */
const BIG_ID = '\u2063mcp-bigint:';
const BIG_ID_PATTERN = /"id":"\u2063mcp-bigint:(-?\d+)"/g;

export type ParsedBody =
  | { ok: true; value: unknown }
  | { ok: false; problem: 'invalid-json' }
  | { ok: false; problem: 'too-deep' };

/** Parses a POST body; ids beyond Number.MAX_SAFE_INTEGER are kept exact (see BIG_ID). */
export function parseBody(text: string): ParsedBody {
  if (tooDeep(text)) return { ok: false, problem: 'too-deep' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'invalid-json' };
  }
  const messages = Array.isArray(value) ? value : [value];
  // Positions in the text map to messages only when every member is an object (any valid batch).
  if (messages.some(hasUnsafeId) && messages.every(isObject))
    keepExactIds(text, messages, Array.isArray(value));
  return { ok: true, value };
}

/** JSON.stringify for anything sent to a client: big ids go back out as the numbers they were. */
export function serialize(message: unknown): string {
  const text = Array.isArray(message)
    ? `[${message.map((m) => withFrozen(m) ?? 'null').join(',')}]`
    : (withFrozen(message) ?? 'null');
  return text.includes(BIG_ID) ? text.replace(BIG_ID_PATTERN, '"id":$1') : text;
}

/** The JSON text of values that never change once made (a surface's tool list), by identity. */
const frozenTexts = new WeakMap<object, string>();

/**
 * Marks `value` as never changing from now on: a response whose result is it, or holds it as a
 * member, is written with the text serialised here once (a tool list is most of its response, and
 * stringifying it again cost more than everything else a tools/list does). Returns `value`.
 */
export function frozenJson<T extends object>(value: T): T {
  frozenTexts.set(value, JSON.stringify(value));
  return value;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  typeof (v as { toJSON?: unknown }).toJSON !== 'function';

/** One message as JSON.stringify writes it, with a frozen result or result member from its text. */
function withFrozen(message: unknown): string | undefined {
  if (!isPlainObject(message)) return JSON.stringify(message);
  const result = message.result;
  const resultText = isFrozen(result)
    ? frozenTexts.get(result as object)
    : isPlainObject(result) && holdsFrozen(result)
      ? members(result)
      : undefined;
  return resultText === undefined ? JSON.stringify(message) : members(message, resultText);
}

const isFrozen = (v: unknown) => typeof v === 'object' && v !== null && frozenTexts.has(v);

function holdsFrozen(o: Record<string, unknown>): boolean {
  for (const key in o) if (isFrozen(o[key])) return true;
  return false;
}

/** An object's JSON written member by member: frozen members from their text, `result` as given. */
function members(o: Record<string, unknown>, resultText?: string): string {
  const parts: string[] = [];
  for (const key of Object.keys(o)) {
    const value = o[key];
    const text =
      key === 'result' && resultText !== undefined
        ? resultText
        : isFrozen(value)
          ? frozenTexts.get(value as object)
          : JSON.stringify(value);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/** Whether brackets nest deeper than MAX_JSON_DEPTH outside strings (a linear scan, no recursion). */
function tooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = endOfString(text, i);
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Index of the closing quote of the string that opens at `start`. */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i;
    else i++;
  }
  return i;
}

function isObject(m: unknown): boolean {
  return typeof m === 'object' && m !== null && !Array.isArray(m);
}

function hasUnsafeId(m: unknown): boolean {
  const id = (m as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isInteger(id) && !Number.isSafeInteger(id);
}

/** Replaces each unsafe numeric id with BIG_ID + the digits the client actually sent. */
function keepExactIds(text: string, messages: unknown[], batch: boolean): void {
  const raw = rawIds(text, batch ? 2 : 1);
  messages.forEach((m, i) => {
    const digits = raw[i];
    if (hasUnsafeId(m) && digits) (m as { id: unknown }).id = `${BIG_ID}${digits}`;
  });
}

/** The literal number token of each message's top-level "id" member, by message position. */
function rawIds(text: string, memberDepth: number): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  let depth = 0;
  let message = -1;
  let lastString: string | undefined;
  let key: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = endOfString(text, i);
      lastString = text.slice(i + 1, end);
      i = end;
    } else if (c === '{' || c === '[') {
      depth++;
      if (c === '{' && depth === memberDepth) message++;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ':' && depth === memberDepth) key = lastString;
    else if (key === 'id' && depth === memberDepth && (c === '-' || (c >= '0' && c <= '9'))) {
      const m = /^-?\d+/.exec(text.slice(i, i + 400));
      if (m) out[message] = m[0];
      key = undefined;
      i += (m?.[0].length ?? 1) - 1;
    } else if (c === ',') key = undefined;
  }
  return out;
}
