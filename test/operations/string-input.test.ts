// One reading of strings for every face: the same text sent as a REST query string and as a web
// form becomes the same arguments (numbers, booleans, comma-separated lists, blank optional fields
// left out), typed by the operation's input JSON Schema; what the schema refuses passes on as sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildInput } from '../../src/http/rest/input.ts';
import { REST_ROUTES } from '../../src/http/rest/routes.ts';
import { listTopics, searchCommunity } from '../../src/operations/community.ts';
import type { AnyOperation } from '../../src/operations/operation.ts';
import { formArgs, type FormData } from '../../src/web/forms.ts';

/** The operation's input from a REST GET with this query string. */
function rest(op: AnyOperation, query: string): Record<string, unknown> {
  const route = REST_ROUTES.find((r) => r.op === op && r.method === 'get')!;
  const built = buildInput(route, op, {
    params: {},
    query: new URLSearchParams(query),
    body: undefined,
    idempotencyKey: undefined,
  });
  assert.ok(built.ok, JSON.stringify(built));
  return { ...built.input };
}

/** The same fields posted as a web form (repeated names as lists, as the web's body parser gives them). */
function form(op: AnyOperation, query: string, rename: Record<string, string> = {}) {
  const data: FormData = {};
  for (const name of new Set(new URLSearchParams(query).keys())) {
    const values = new URLSearchParams(query).getAll(name);
    data[rename[name] ?? name] = values.length > 1 ? values : values[0]!;
  }
  return { ...formArgs(op, data) };
}

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

test('a search reads the same from a query string and from a form', () => {
  const query = 'q=%20postgres%20&solved_only=on&tags=Backup,%20restore&limit=%205%20&since=&mode=';
  const fromRest = rest(searchCommunity, query);
  const fromForm = form(searchCommunity, query, {
    q: 'query',
    solved_only: 'filters.solved_only',
    tags: 'filters.tags',
    limit: 'filters.limit',
    since: 'filters.since',
  });
  const expected = {
    query: ' postgres ',
    filters: { solved_only: true, tags: ['Backup', 'restore'], limit: 5 },
  };
  assert.deepEqual(plain(fromRest), expected);
  assert.deepEqual(plain(fromForm), expected);
});

test('booleans, numbers and blanks follow one rule on both faces', () => {
  for (const [query, expected] of [
    ['solved_only=false', { filters: { solved_only: false } }],
    ['solved_only=1', { filters: { solved_only: true } }],
    ['solved_only=yes', { filters: { solved_only: 'yes' } }],
    ['limit=1e3', { filters: { limit: '1e3' } }],
    ['limit=', {}],
  ] as const) {
    const fromRest = rest(searchCommunity, query);
    const name = query.split('=')[0]!;
    const fromForm = form(searchCommunity, query, { [name]: `filters.${name}` });
    assert.deepEqual(plain(fromRest), expected, `REST ${query}`);
    assert.deepEqual(plain(fromForm), expected, `web ${query}`);
  }
});

test('a repeated single-valued field is passed on as a list, for the schema to refuse', () => {
  const query = 'sort=latest&sort=top&cursor=';
  assert.deepEqual(plain(rest(listTopics, query)), { sort: ['latest', 'top'] });
  assert.deepEqual(plain(form(listTopics, query)), { sort: ['latest', 'top'] });
  assert.equal(listTopics.input.safeParse(rest(listTopics, query)).success, false);
});

test('unknown names: a query string keeps them (the strict schema names them), a form drops them', () => {
  const query = 'not_a_parameter=1&__proto__=x&limit=3';
  const fromRest = rest(listTopics, query);
  assert.equal(fromRest.not_a_parameter, '1');
  assert.ok(Object.hasOwn(fromRest, '__proto__'), '__proto__ is an own, unknown name');
  assert.deepEqual(plain(form(listTopics, query)), { limit: 3 });
});
