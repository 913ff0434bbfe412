// One limit per field: for every limited field of every operation, the schema an MCP client reads
// (tools/list) states the product's limit, the tool refuses one past it, and the domain services
// (which the web and REST faces reach too) accept the limit itself and refuse one past it. The field
// table (src/domain/fields.ts) is the only source: no other module keeps a field schema, every
// operation that takes a field of the table states its limits, and REST and the web forms refuse
// and show exactly those.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { z } from 'zod';
import { LIMITS } from '../../src/domain/fields.ts';
import * as validate from '../../src/domain/validate.ts';
import { CATALOGUE } from '../../src/operations/catalogue.ts';
import { jsonSchemasOf } from '../../src/operations/operation.ts';
import type { Community } from '../../src/store/types.ts';
import { raw, rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { WebClient } from '../web/client.ts';

let h: TestHamlet;
let acme: Community;
let agentKey: string;
let userKey: string;
let topicId: string;
const system = systemActor('test');
/** n characters of words ("aaaa aaaa …"), never starting or ending with a space. */
const text = (n: number) =>
  Array.from({ length: n }, (_, i) => (i % 5 === 4 && i < n - 1 ? ' ' : 'a')).join('');

before(async () => {
  h = await startTestHamlet(
    {
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
    },
    { demo: true },
  );
  acme = (await h.store.communities.getBySlug('acme'))!;
  ({ key: agentKey } = await h.services.agents.create(system, acme, {
    name: 'limits',
    scopes: ['topic:create', 'post:create', 'solution:mark'],
    trusted: true,
  }));
  await h.services.accounts.createUser(system, {
    email: 'lim@example.org',
    password: 'a long enough password',
  });
  ({ key: userKey } = await h.services.accounts.mintUserKey(system, { email: 'lim@example.org' }));
  topicId = (await h.services.content.listTopics(system, acme, { category: 'support', limit: 1 }))
    .topics[0]!.id;
});
after(() => h.stop());

type Server = 'community' | 'network';
const urlOf = (server: Server) =>
  h.hostUrl(server === 'community' ? 'acme.localhost' : 'localhost', '/api/mcp');
const keyOf = (server: Server, tool: string) =>
  server === 'community' ? agentKey : tool === 'ask_community' ? userKey : undefined;

async function listed(server: Server, tool: string): Promise<any> {
  const res = await rpc(urlOf(server), { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const def = res.json().result.tools.find((t: { name: string }) => t.name === tool);
  assert.ok(def, `${tool} is listed on the ${server} server`);
  return def.inputSchema;
}

async function call(server: Server, tool: string, args: Record<string, unknown>) {
  const key = keyOf(server, tool);
  const res = await rpc(
    urlOf(server),
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } },
    key ? { authorization: `Bearer ${key}` } : {},
  );
  return res.json().result as { isError: boolean; structuredContent: Record<string, unknown> };
}

/** The JSON Schema of `path` ("filters.tags") inside a tool's input schema. */
function schemaAt(schema: any, path: string): any {
  return path
    .split('.')
    .reduce(
      (s, key) => (s.anyOf ? s.anyOf.find((x: any) => x.properties) : s).properties[key],
      schema,
    );
}

function setAt(
  args: Record<string, unknown>,
  path: string,
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  return rest.length
    ? {
        ...args,
        [head!]: setAt((args[head!] as Record<string, unknown>) ?? {}, rest.join('.'), value),
      }
    : { ...args, [head!]: value };
}

const question = {
  category: 'support',
  title: 'A question about limits',
  body: 'What are the limits of each field?',
};

/** A domain call with the field set to `value`: resolves when accepted, rejects invalid_argument when refused. */
type DomainCall = (value: unknown) => Promise<unknown>;
const domain: Record<string, DomainCall> = {
  'topic.title': (v) =>
    h.services.writes.execute(system, acme, 'topic.create', { ...question, title: v }),
  'topic.body': (v) =>
    h.services.writes.execute(system, acme, 'topic.create', { ...question, body: v }),
  'topic.tags': (v) =>
    h.services.writes.execute(system, acme, 'topic.create', { ...question, tags: v }),
  'reply.body': (v) =>
    h.services.writes.execute(system, acme, 'post.create', { topic: topicId, body: v }),
  'search.query': (v) => h.services.search.search([acme], v as string),
  'search.tags': (v) => h.services.search.search([acme], 'limits', { tags: v as string[] }),
  'search.limit': (v) => h.services.search.search([acme], 'limits', { limit: v as number }),
  'suggest.question': (v) => h.services.search.suggestAnswer([acme], v as string),
};

type Row = {
  server: Server;
  tool: string;
  path: string;
  base: Record<string, unknown>;
  kind: 'string' | 'array' | 'number';
  min?: number;
  max: number;
  domain?: string;
};
const ROWS: Row[] = [
  {
    server: 'community',
    tool: 'create_topic',
    path: 'title',
    base: question,
    kind: 'string',
    min: LIMITS.title.min,
    max: LIMITS.title.max,
    domain: 'topic.title',
  },
  {
    server: 'community',
    tool: 'create_topic',
    path: 'body',
    base: question,
    kind: 'string',
    min: LIMITS.questionBody.min,
    max: LIMITS.questionBody.max,
    domain: 'topic.body',
  },
  {
    server: 'community',
    tool: 'create_topic',
    path: 'tags',
    base: question,
    kind: 'array',
    max: LIMITS.tags.max,
    domain: 'topic.tags',
  },
  {
    server: 'community',
    tool: 'create_topic',
    path: 'idempotency_key',
    base: question,
    kind: 'string',
    min: LIMITS.idempotencyKey.min,
    max: LIMITS.idempotencyKey.max,
  },
  {
    server: 'community',
    tool: 'reply_to_topic',
    path: 'body',
    base: { topic: 'x' },
    kind: 'string',
    min: LIMITS.replyBody.min,
    max: LIMITS.replyBody.max,
    domain: 'reply.body',
  },
  {
    server: 'community',
    tool: 'search_community',
    path: 'query',
    base: {},
    kind: 'string',
    min: LIMITS.searchQuery.min,
    max: LIMITS.searchQuery.max,
    domain: 'search.query',
  },
  {
    server: 'community',
    tool: 'search_community',
    path: 'filters.tags',
    base: { query: 'limits' },
    kind: 'array',
    max: LIMITS.tags.max,
    domain: 'search.tags',
  },
  {
    server: 'community',
    tool: 'search_community',
    path: 'filters.cursor',
    base: { query: 'limits' },
    kind: 'string',
    max: LIMITS.cursor.max,
  },
  {
    server: 'community',
    tool: 'search_community',
    path: 'filters.limit',
    base: { query: 'limits' },
    kind: 'number',
    min: 1,
    max: 50,
    domain: 'search.limit',
  },
  {
    server: 'community',
    tool: 'suggest_answer',
    path: 'question',
    base: {},
    kind: 'string',
    min: LIMITS.question.min,
    max: LIMITS.question.max,
    domain: 'suggest.question',
  },
  {
    server: 'community',
    tool: 'list_topics',
    path: 'cursor',
    base: {},
    kind: 'string',
    max: LIMITS.cursor.max,
  },
  {
    server: 'network',
    tool: 'ask_community',
    path: 'title',
    base: { community: 'acme', ...question },
    kind: 'string',
    min: LIMITS.title.min,
    max: LIMITS.title.max,
    domain: 'topic.title',
  },
  {
    server: 'network',
    tool: 'ask_community',
    path: 'body',
    base: { community: 'acme', ...question },
    kind: 'string',
    min: LIMITS.questionBody.min,
    max: LIMITS.questionBody.max,
    domain: 'topic.body',
  },
  {
    server: 'network',
    tool: 'search_network',
    path: 'filters.tags',
    base: { query: 'limits' },
    kind: 'array',
    max: LIMITS.tags.max,
    domain: 'search.tags',
  },
  {
    server: 'network',
    tool: 'suggest_answer',
    path: 'question',
    base: {},
    kind: 'string',
    min: LIMITS.question.min,
    max: LIMITS.question.max,
    domain: 'suggest.question',
  },
];

const valueOf = (kind: Row['kind'], n: number) =>
  kind === 'string'
    ? text(n)
    : kind === 'array'
      ? Array.from({ length: n }, (_, i) => `tag-${i}`)
      : n;
const refused = (err: unknown) => err instanceof DomainError && err.code === 'invalid_argument';

describe('one limit per field, on every face', () => {
  for (const row of ROWS) {
    test(`${row.server} ${row.tool}.${row.path}: ${row.min ?? 0}..${row.max}`, async () => {
      const schema = schemaAt(await listed(row.server, row.tool), row.path);
      const [minKey, maxKey] =
        row.kind === 'string'
          ? ['minLength', 'maxLength']
          : row.kind === 'array'
            ? ['minItems', 'maxItems']
            : ['minimum', 'maximum'];
      assert.equal(schema[maxKey], row.max, `tools/list states the maximum of ${row.path}`);
      if (row.min !== undefined && row.min > (row.kind === 'number' ? -Infinity : 0))
        assert.equal(schema[minKey], row.min, `tools/list states the minimum of ${row.path}`);

      const over = await call(
        row.server,
        row.tool,
        setAt(row.base, row.path, valueOf(row.kind, row.max + 1)),
      );
      assert.equal(over.isError, true);
      assert.equal(
        over.structuredContent.code,
        undefined,
        'an argument-schema failure carries no code',
      );
      assert.match(String(over.structuredContent.error), new RegExp(row.path.split('.').pop()!));

      if (!row.domain) return;
      const reach = domain[row.domain]!;
      await assert.rejects(
        reach(valueOf(row.kind, row.max + 1)),
        refused,
        `the domain refuses ${row.max + 1}`,
      );
      await reach(valueOf(row.kind, row.max)); // the limit itself is accepted
      if (row.min !== undefined && row.min > 1) {
        await assert.rejects(
          reach(valueOf(row.kind, row.min - 1)),
          refused,
          `the domain refuses ${row.min - 1}`,
        );
        await reach(valueOf(row.kind, row.min));
      }
    });
  }
});

/** What a field of the table looks like in an operation's input JSON Schema. */
const STATED: Record<string, (s: any) => boolean> = {
  title: (s) => s.minLength === LIMITS.title.min && s.maxLength === LIMITS.title.max,
  body: (s) =>
    [LIMITS.questionBody, LIMITS.replyBody].some(
      (l) => s.minLength === l.min && s.maxLength === l.max,
    ),
  tags: (s) =>
    s.maxItems === LIMITS.tags.max &&
    String(s.items?.pattern).includes(`{0,${LIMITS.tag.max - 1}}`),
  question: (s) => s.minLength === LIMITS.question.min && s.maxLength === LIMITS.question.max,
  searchQuery: (s) =>
    s.minLength === LIMITS.searchQuery.min && s.maxLength === LIMITS.searchQuery.max,
  cursor: (s) => s.maxLength === LIMITS.cursor.max,
  idempotency_key: (s) =>
    s.minLength === LIMITS.idempotencyKey.min && s.maxLength === LIMITS.idempotencyKey.max,
  // Free text up to the limit, or (a flag's reason) one of a list, which has no length to state.
  reason: (s) => s.maxLength === LIMITS.reason.max || Array.isArray(s.enum),
  email: (s) => s.maxLength === LIMITS.email.max,
  password: (s) => s.minLength === LIMITS.password.min && s.maxLength === LIMITS.password.max,
  new_password: (s) => s.minLength === LIMITS.password.min && s.maxLength === LIMITS.password.max,
  current_password: (s) => s.maxLength === LIMITS.password.max,
  expires_in_days: (s) =>
    s.minimum === LIMITS.expiresInDays.min && s.maximum === LIMITS.expiresInDays.max,
};

describe('the field table is the one source of every limit', () => {
  test('domain/validate.ts keeps no field schema of its own', () => {
    const schemas = Object.entries(validate)
      .filter(([name, v]) => v instanceof z.ZodType || /schema$/i.test(name))
      .map(([name]) => name);
    assert.deepEqual(schemas, [], 'field schemas belong in src/domain/fields.ts');
  });

  test('every operation that takes a field of the table states its limits', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const op of CATALOGUE) {
      const input = jsonSchemasOf(op).input as any;
      const fields = { ...input.properties, ...(input.properties?.filters?.properties ?? {}) };
      for (const [name, schema] of Object.entries<any>(fields)) {
        const stated = STATED[name === 'query' && /search/.test(op.name) ? 'searchQuery' : name];
        if (!stated) continue;
        checked++;
        if (!stated(schema))
          wrong.push(`${op.server} ${op.name}.${name}: ${JSON.stringify(schema).slice(0, 200)}`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(checked >= 40, `${checked} fields checked`);
  });

  test('REST refuses one past the limit and takes the limit itself, as MCP does', async () => {
    const post = (title: string) =>
      raw(h.hostUrl('acme.localhost', '/api/v1/topics'), {
        method: 'POST',
        headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...question, title }),
      });
    for (const n of [LIMITS.title.min - 1, LIMITS.title.max + 1]) {
      const res = await post(text(n));
      assert.equal(res.status, 422, `a ${n}-character title`);
      assert.match(res.text, /title/);
    }
    assert.equal((await post(text(LIMITS.title.max))).status, 201);
    assert.equal((await post(text(LIMITS.title.min))).status, 201);
  });

  test('the web forms state the limits of the table and refuse one past them', async () => {
    await h.services.accounts.createUser(system, {
      email: 'lim-web@example.org',
      password: 'a long enough password',
      name: 'Lim',
    });
    const web = new WebClient(h.hostUrl('acme.localhost', ''));
    await web.get('/signin');
    await web.post('/signin', {
      email: 'lim-web@example.org',
      password: 'a long enough password',
      next: '/',
    });
    const home = await web.get('/');
    assert.match(
      home.text,
      new RegExp(`id="home-q" name="q" required maxlength="${LIMITS.searchQuery.max}"`),
    );
    const ask = await web.get('/ask');
    const n = (v: number) => v.toLocaleString('en');
    assert.match(ask.text, new RegExp(`maxlength="${LIMITS.title.max}"`));
    assert.match(
      ask.text,
      new RegExp(`${n(LIMITS.title.min)} to ${n(LIMITS.title.max)} characters`),
    );
    assert.match(
      ask.text,
      new RegExp(`${n(LIMITS.questionBody.min)} to ${n(LIMITS.questionBody.max)} characters`),
    );
    assert.match(ask.text, new RegExp(`Up to ${LIMITS.tags.max}, separated by commas`));
    const refused = await web.post('/ask', {
      action: 'post',
      ...question,
      title: text(LIMITS.title.max + 1),
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, new RegExp(`must be at most ${LIMITS.title.max} characters`));
    const account = await web.get('/account');
    assert.match(account.text, new RegExp(`At least ${LIMITS.password.min} characters`));
    assert.match(
      account.text,
      new RegExp(`min="${LIMITS.expiresInDays.min}" max="${LIMITS.expiresInDays.max}"`),
    );
  });
});
