// Text to an operation's arguments, one way for every face that receives only strings (a REST query
// string, a web form): each value is typed by the operation's own input JSON Schema (jsonSchemasOf).
// The rules: a number field takes a decimal number; a boolean field "true", "1" or "on" and
// "false", "0" or "off"; a list field comma-separated values (or the name repeated), trimmed, empty
// ones dropped; a blank value of an optional field is no value. Anything else is passed on as it
// came (a string, or the list of strings when the name is repeated), for the pipeline to refuse with
// its own message. Names are looked up as own properties into null-prototype objects, so
// `__proto__` or `constructor` are unknown names like any other.
import type { AnyOperation } from './operation.ts';
import { jsonSchemasOf } from './operation.ts';

/** The parts of JSON Schema this reads. */
export type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** One value sent: the field it goes to (["filters", "tags"] for a nested one) and its strings. */
export type StringField = { path: string[]; values: string[] };

const NUMBER = /^-?\d+(\.\d+)?$/;

/** The JSON type a schema takes (the non-null one of a nullable). */
function typeOf(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  const alt = (schema.anyOf ?? schema.oneOf)?.find((s) => typeOf(s) !== 'null');
  return typeOf(alt);
}

/** `record[name]` when it is the record's own property. */
function own<T>(record: Record<string, T> | undefined, name: string): T | undefined {
  return record && Object.hasOwn(record, name) ? record[name] : undefined;
}

const bare = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

function scalar(type: string | undefined, value: string): unknown {
  const v = value.trim();
  if ((type === 'integer' || type === 'number') && NUMBER.test(v)) return Number(v);
  if (type === 'boolean') {
    if (v === 'true' || v === '1' || v === 'on') return true;
    if (v === 'false' || v === '0' || v === 'off') return false;
  }
  return value;
}

/** One field's value from its strings, typed by its schema; undefined when it carries none. */
export function valueOf(
  schema: JsonSchema | undefined,
  values: string[],
  optional: boolean,
): unknown {
  const type = typeOf(schema);
  if (type === 'array') {
    const items = values
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '')
      .map((v) => scalar(typeOf(schema?.items), v));
    return items.length || !optional ? items : undefined;
  }
  if (values.length > 1) return values;
  const one = values[0];
  if (one === undefined || (optional && one.trim() === '')) return undefined;
  return scalar(type, one);
}

/**
 * The operation's arguments from the strings sent. `unknown: 'keep'` passes a name the schema does
 * not have on as sent (REST: the strict schema then names it); 'drop' leaves it out (a web form's
 * own fields, such as its token and buttons).
 */
export function inputFromStrings(
  op: AnyOperation,
  fields: StringField[],
  unknown: 'keep' | 'drop',
): Record<string, unknown> {
  const root = jsonSchemasOf(op).input as JsonSchema;
  const input = bare();
  for (const { path, values } of fields) {
    let schema: JsonSchema | undefined = root;
    let target = input;
    for (const [i, name] of path.entries()) {
      const field: JsonSchema | undefined = own(schema?.properties, name);
      const optional = !schema?.required?.includes(name);
      if (!field && unknown === 'drop') break;
      if (i < path.length - 1) {
        if (typeOf(field) !== 'object') break;
        target = (target[name] ??= bare()) as Record<string, unknown>;
        schema = field;
        continue;
      }
      const value = field
        ? valueOf(field, values, optional)
        : values.length > 1
          ? values
          : values[0];
      if (value !== undefined) target[name] = value;
    }
  }
  // A nested object none of whose fields carried a value is no value either.
  for (const [name, value] of Object.entries(input))
    if (isEmptyObject(value) && !(root.required ?? []).includes(name)) delete input[name];
  return input;
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  );
}
