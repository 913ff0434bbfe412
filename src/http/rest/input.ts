// From an HTTP request to an operation's raw input: path parameters, the query string (read as every
// face reads strings, inputFromStrings: numbers, booleans, comma-separated or repeated lists), the
// JSON body and the Idempotency-Key header. Nothing is validated here beyond shape: the pipeline
// validates the result with the operation's own schema, after authentication. Names a client sends
// are looked up as own properties only, into a null-prototype object: `toString`, `constructor` or
// `__proto__` are unknown names like any other (the schema refuses them with 422).
import type { z } from 'zod';
import { jsonSchemasOf, type AnyOperation } from '../../operations/operation.ts';
import type { Issue } from '../../operations/pipeline.ts';
import { inputFromStrings, type JsonSchema } from '../../operations/string-input.ts';
import type { RestRoute } from './routes.ts';
import { pathParams } from './routes.ts';

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
  let input = bare();
  const issues: Issue[] = [];
  if (route.method === 'get') {
    const schema = jsonSchemasOf(op).input as JsonSchema;
    const nested = route.nest ? own(schema.properties, route.nest) : undefined;
    const fields = [...new Set(parts.query.keys())].map((name) => {
      const field = own(route.rename, name) ?? name;
      const inner = !own(shape, field) && own(nested?.properties, name);
      return { path: inner ? [route.nest!, name] : [field], values: parts.query.getAll(name) };
    });
    input = inputFromStrings(op, fields, 'keep');
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
