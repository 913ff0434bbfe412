// Seeded generators for the fuzzer: values drawn from a JSON Schema (the tools' input schemas as
// tools/list publishes them), usually valid, often just outside a limit, sometimes of the wrong
// type, plus a stock of hostile strings (NUL, surrogates, SQL, huge numbers, forged cursors).
export type Rng = {
  next(): number;
  int(max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
};

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max) => Math.floor(next() * max),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Strings that have broken servers before, one engine or another. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '😀'.repeat(50),
  '\u202e\u202d',
  'é'.normalize('NFD'),
  "'; drop table topics; --",
  '" or 1=1 --',
  '%',
  '_',
  '\\',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '{{ problem }}',
  '${process.env}',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x7fffffff',
  '2147483648',
  '0000-01-01',
  '1969-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999Z',
  '10000-01-01',
  '2024-02-30',
  '2024-13-01T00:00:00Z',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'not-a-uuid',
  'verifying-the-hamlet-signature-header',
  'acme',
  'skunkworks',
  'support',
  'docs',
  'hamlet://acme/topics/x',
  'hmlt_live_' + 'A'.repeat(40),
  'hmlt_u_' + 'B'.repeat(40),
  base64url(['topics:latest', 'x', 'y']),
  base64url(['topics:top', 'abc', 'not-a-uuid']),
  base64url(['topics:latest', 1e300, 7]),
  base64url(['communities', null, null]),
  base64url({}),
  base64url('h:9999'),
  'h:1',
  '!!!',
  '\n\r\t',
  'a'.repeat(501),
  'b'.repeat(2001),
];

export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 63),
  1e308,
  -1e-308,
  [],
  {},
  [null],
  { '': null },
  { __proto__: { x: 1 } },
  { constructor: { prototype: {} } },
  ['a'.repeat(10_000)],
  nested(60),
];

function nested(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { v };
  return v;
}

function randomText(r: Rng, min: number, max: number): string {
  const length = Math.max(0, Math.min(max, min + r.int(Math.min(max - min + 1, 80))));
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyz ',
    'ABCxyz0123456789-_',
    'äöüßéèñ日本語한국어עברית',
    '\u0000\u0001\u001f\u007f\ud800\u2028',
  ];
  const alphabet = r.pick(alphabets);
  let s = '';
  while (s.length < length) s += alphabet[r.int(alphabet.length)];
  return s.slice(0, Math.max(min, length));
}

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
  anyOf?: Schema[];
};

/** A value for `schema`: mostly plausible, sometimes at or just past a limit, sometimes hostile. */
export function valueFor(schema: Schema, r: Rng, depth = 0): unknown {
  if (r.chance(0.06)) return r.chance(0.5) ? r.pick(HOSTILE_STRINGS) : r.pick(HOSTILE_VALUES);
  if (schema.anyOf?.length) return valueFor(r.pick(schema.anyOf), r, depth);
  if (schema.enum) return r.chance(0.9) ? r.pick(schema.enum) : r.pick(HOSTILE_STRINGS);
  const type = Array.isArray(schema.type) ? r.pick(schema.type) : schema.type;
  switch (type) {
    case 'object':
      return objectFor(schema, r, depth);
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? 6, 8);
      const n = r.chance(0.1) ? max + 1 : min + r.int(Math.max(1, max - min + 1));
      return Array.from({ length: n }, () => valueFor(schema.items ?? {}, r, depth + 1));
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1000;
      const edge = r.pick([min, max, min - 1, max + 1, 0]);
      const v = r.chance(0.3) ? edge : min + r.int(Math.max(1, max - min + 1));
      return type === 'number' && r.chance(0.2) ? v + 0.5 : v;
    }
    case 'boolean':
      return r.chance(0.5);
    case 'string': {
      if (r.chance(0.3)) return r.pick(HOSTILE_STRINGS);
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? 200;
      if (r.chance(0.08)) return randomText(r, max + 1, max + 1); // one past the limit
      if (schema.pattern && r.chance(0.6)) return r.pick(['acme', 'support', 'bug', 'a-1', 'x']);
      return randomText(r, min, max);
    }
    default:
      return r.pick(HOSTILE_VALUES);
  }
}

function objectFor(schema: Schema, r: Rng, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(name);
    if ((required && r.chance(0.95)) || (!required && r.chance(0.4)))
      out[name] = depth > 6 ? null : valueFor(prop, r, depth + 1);
  }
  if (r.chance(0.05))
    out[r.pick(['extra', '__proto__', 'constructor', '', 'a\u0000'])] = r.pick(HOSTILE_VALUES);
  return out;
}
