// From an HTTP request to an operation's raw input: path parameters, the query string (typed by the
// input schema: numbers, booleans and comma-separated or repeated lists), the JSON body and the
// Idempotency-Key header. Nothing is validated here beyond shape: the pipeline validates the
// result with the operation's own schema, after authentication. Names a client sends are looked up
// as own properties only, into a null-prototype object: `toString`, `constructor` or `__proto__`
// are unknown names like any other (the schema refuses them with 422), never Object.prototype's.
import { z } from 'zod';
import type { AnyOperation } from '../../operations/operation.ts';
import type { Issue } from '../../operations/pipeline.ts';
import type { RestRoute } from './routes.ts';
import { pathParams } from './routes.ts';

export type FieldKind = 'number' | 'boolean' | 'array' | 'object' | 'string';

/** What JSON type a field takes, through optional/default/pipe wrappers. */
export function fieldKind(schema: z.ZodType): FieldKind {
  let s = schema as z.ZodType & {
    _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } };
  };
  for (let i = 0; i < 10; i++) {
    const def = s._zod.def;
    if (def.innerType) s = def.innerType as typeof s;
    else if (def.type === 'pipe' && def.in) s = def.in as typeof s;
    else break;
  }
  const t = s._zod.def.type;
  if (t === 'number' || t === 'int' || t === 'bigint') return 'number';
  if (t === 'boolean') return 'boolean';
  if (t === 'array') return 'array';
  if (t === 'object') return 'object';
  return 'string';
}

/** The object schema inside optional/default wrappers (search `filters`). */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let s = schema as z.ZodType & {
    _zod: { def: { innerType?: z.ZodType; shape?: Record<string, z.ZodType> } };
  };
  while (s._zod.def.innerType) s = s._zod.def.innerType as typeof s;
  return s._zod.def.shape;
}

function coerce(values: string[], kind: FieldKind | undefined): unknown {
  const one = values[values.length - 1]!;
  switch (kind) {
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(one) ? Number(one) : one;
    case 'boolean':
      return one === 'true' || one === '1' ? true : one === 'false' || one === '0' ? false : one;
    case 'array':
      return values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== '');
    default:
      return values.length > 1 ? values : one;
  }
}

export type RequestParts = {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body (undefined for none). */
  body: unknown;
  idempotencyKey: string | undefined;
};

export type Built =
  { ok: true; input: Record<string, unknown> } | { ok: false; issues: Issue[]; status: 400 | 422 };

/** Whether the operation takes an idempotency key (the Idempotency-Key header maps onto it). */
export function takesIdempotencyKey(op: AnyOperation): boolean {
  return 'idempotency_key' in op.input.shape;
}

/** `record[name]` when it is the record's own property (never one inherited from Object.prototype). */
function own<T>(record: Record<string, T> | undefined, name: string): T | undefined {
  return record && Object.hasOwn(record, name) ? record[name] : undefined;
}

/** An empty object without a prototype: any name set on it is an own property, `__proto__` too. */
const bare = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

export function buildInput(route: RestRoute, op: AnyOperation, parts: RequestParts): Built {
  const shape = op.input.shape as Record<string, z.ZodType>;
  const input = bare();
  const issues: Issue[] = [];
  if (route.method === 'get') {
    const nestShape = route.nest ? own(shape, route.nest) : undefined;
    const nested = nestShape ? objectShape(nestShape) : undefined;
    for (const name of new Set(parts.query.keys())) {
      const values = parts.query.getAll(name);
      const field = own(route.rename, name) ?? name;
      const inner = own(nested, name);
      const outer = own(shape, field);
      if (inner && !outer) {
        const target = (input[route.nest!] ??= bare()) as Record<string, unknown>;
        target[name] = coerce(values, fieldKind(inner));
      } else {
        input[field] = coerce(values, outer ? fieldKind(outer) : undefined);
      }
    }
  } else if (parts.body !== undefined) {
    if (typeof parts.body !== 'object' || parts.body === null || Array.isArray(parts.body)) {
      return {
        ok: false,
        status: 400,
        issues: [{ path: '(body)', message: 'must be a JSON object' }],
      };
    }
    for (const [name, value] of Object.entries(parts.body)) input[name] = value;
  }
  for (const name of pathParams(route.path)) {
    const field = own(route.params, name) ?? name;
    if (Object.hasOwn(input, field))
      issues.push({
        path: field,
        message: `is given in the path; leave it out of the ${route.method === 'get' ? 'query' : 'body'}`,
      });
    input[field] = parts.params[name];
  }
  if (parts.idempotencyKey !== undefined) {
    if (!takesIdempotencyKey(op)) {
      issues.push({
        path: 'Idempotency-Key',
        message: `is not taken by ${op.name}: only content writes (topics, replies, solutions, questions) replay a first result`,
      });
    } else if (
      input.idempotency_key !== undefined &&
      input.idempotency_key !== parts.idempotencyKey
    ) {
      issues.push({
        path: 'Idempotency-Key',
        message: "differs from the body's idempotency_key; send one of them",
      });
    } else {
      input.idempotency_key = parts.idempotencyKey;
    }
  }
  return issues.length ? { ok: false, status: 422, issues } : { ok: true, input };
}
