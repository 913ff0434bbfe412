// The OpenAPI documents (community host and apex) validate under @readme/openapi-parser, and every
// operation in them is walked against the running server with generated requests: a valid one
// (values built from the documented schema) never gets a 5xx; an invalid one (a wrong type, or a
// field the schema does not have) gets a 400/422 problem.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { dereference, validate } from '@readme/openapi-parser';
import { startRestFixture, type Fixture } from './fixture.ts';

type Schema = Record<string, any>;

const STRINGS = ['acme', 'getting-started', 'walker@example.com', 'abc', 'a1', 'topic.create'];

/** A value that satisfies `s` as far as JSON Schema says (refinements beyond it may still refuse it). */
function sample(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 8) return 'x';
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return sample(alt.find((a: Schema) => a.type !== 'null') ?? alt[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, Math.min(s.maximum ?? 5, 5));
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(s.minItems ?? 0, 1) }, () => sample(s.items, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = sample(s.properties?.[name], depth + 1);
      return out;
    }
    default: {
      if (s.format === 'uri') return 'http://127.0.0.1:9/walk';
      if (s.format === 'email') return 'walker@example.com';
      const min = s.minLength ?? 0;
      const max = s.maxLength ?? 10_000;
      const fits = (v: string) =>
        v.length >= min && v.length <= max && (!s.pattern || new RegExp(s.pattern, 'u').test(v));
      return (
        [
          ...STRINGS,
          'walk '.repeat(Math.ceil(Math.max(min, 8) / 5)).slice(0, Math.max(min, 8)),
        ].find(fits) ?? 'a'.repeat(Math.max(min, 1))
      );
    }
  }
}

/** The same shape with one thing wrong: the first field of the wrong type, or an unknown field. */
function broken(s: Schema | undefined): Record<string, unknown> {
  const valid = (sample(s) ?? {}) as Record<string, unknown>;
  const first = (s?.required ?? [])[0];
  if (first)
    return { ...valid, [first]: typeof valid[first] === 'number' ? 'not a number' : 12345 };
  return { ...valid, not_a_field: true };
}

let f: Fixture;
before(async () => {
  f = await startRestFixture({ HAMLET_WEBHOOK_ALLOW_PRIVATE: '1', HAMLET_WEBHOOK_DISPATCH: '0' });
});
after(() => f?.stop());

for (const server of ['community', 'network'] as const) {
  test(`the ${server} OpenAPI document validates and every operation answers valid and invalid requests as documented`, async () => {
    const api = server === 'community' ? f.api : f.network;
    const raw = (await api.call('GET', '/openapi.json')).json;
    assert.equal(raw.openapi, '3.1.0');
    const verdict = await validate(structuredClone(raw));
    assert.ok(verdict.valid, JSON.stringify(verdict).slice(0, 2000));
    const doc = (await dereference(structuredClone(raw))) as Schema;
    const key = server === 'community' ? f.keys.owner : f.keys.member;
    let walked = 0;
    for (const [path, item] of Object.entries(doc.paths as Schema)) {
      for (const [method, op] of Object.entries(item as Schema)) {
        const params = (op.parameters ?? []) as Schema[];
        const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(String(sample(params.find((p) => p.name === name)?.schema))),
        );
        const query = new URLSearchParams();
        for (const p of params.filter((p) => p.in === 'query' && p.required))
          query.set(p.name, String(sample(p.schema)));
        const bodySchema = op.requestBody?.content?.['application/json']?.schema as
          Schema | undefined;
        const label = `${method.toUpperCase()} ${path}`;
        const send = (q: URLSearchParams, body: unknown) =>
          api.call(method.toUpperCase(), `${concrete}${q.size ? `?${q}` : ''}`, { key, body });

        const valid = await send(
          query,
          method === 'get' ? undefined : bodySchema ? sample(bodySchema) : undefined,
        );
        assert.ok(
          valid.status < 500,
          `${label} (valid) → ${valid.status} ${valid.text.slice(0, 300)}`,
        );

        const badQuery = new URLSearchParams(query);
        if (method === 'get') badQuery.set('not_a_parameter', '1');
        const invalid = await send(badQuery, method === 'get' ? undefined : broken(bodySchema));
        assert.ok(
          [400, 422].includes(invalid.status),
          `${label} (invalid) → ${invalid.status} ${invalid.text.slice(0, 300)}`,
        );
        assert.match(
          invalid.headers.get('content-type') ?? '',
          /^application\/problem\+json/,
          label,
        );
        walked++;
      }
    }
    assert.ok(walked >= (server === 'community' ? 35 : 9), `walked ${walked} operations`);
  });
}
