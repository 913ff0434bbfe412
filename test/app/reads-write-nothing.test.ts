// A request writes nothing it does not need: after a warm-up, `ping` (also in a session),
// tools/list, get_topic, search_community and list_topics (MCP with an agent key), a REST GET and a
// web topic page each cost no write, on SQLite and on PostgreSQL, counted by the engines themselves:
// - SQLite: PRAGMA data_version on a connection of the test's own, which changes whenever another
//   connection commits a change to the file (so it counts write transactions, not statements);
// - PostgreSQL: the server's statement log (log_statement = 'all' set on the test's own database,
//   the log file from scripts/with-postgres.sh): the logged insert, update and delete statements.
// A create_topic is counted beside them: a write, it must show (the counters see writes). On
// PostgreSQL the rate limits are settled in the background, once a second for every budget in one
// statement (src/store/kysely/counted-buckets.ts): those are counted apart and must not grow with
// the requests. The budgets are high: a client bursting faster than an allowance (a thirty-second of
// its budget) a second settles early, and this test sends as fast as it can.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { freshDemoAgentKey } from '../../src/demo/demo-key.ts';
import { postgresFromTemplate } from '../helpers/template.ts';
import { raw, rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

const TOPIC = 'verifying-the-hamlet-signature-header';
const COUNTED = 5;
const LIMITS = {
  HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '60000',
  HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '60000',
  LOG_LEVEL: 'warn',
};

/** What the engine counted since a mark: writes, and (PostgreSQL) the rate limits' settlings. */
type Counted = { writes: string[]; settlings: number };
type Counter = {
  mark(): number;
  /** Looked at after each request (SQLite says only that something changed since the last look). */
  look(): void;
  since(mark: number): Counted;
};

/** Write transactions committed by other connections, as SQLite counts them (data_version). */
function sqliteCounter(file: string): Counter & { close(): void } {
  const db = new Database(file, { readonly: true });
  const version = () => Number(db.pragma('data_version', { simple: true }));
  let base = version();
  let seen = 0;
  const total = () => {
    const v = version();
    if (v !== base) [seen, base] = [seen + 1, v]; // at least one commit since the last look
    return seen;
  };
  return {
    mark: total,
    look: () => void total(),
    since: (at) => ({
      writes: Array.from({ length: total() - at }, () => 'a committed write'),
      settlings: 0,
    }),
    close: () => db.close(),
  };
}

const WRITE =
  /^\s*(insert\s+into|update\s|delete\s+from|merge\s+into)|\)\s*(insert\s+into|update\s|delete\s+from)/i;
const SETTLING = /^\s*with input as \(\s*select \* from unnest\([\s\S]*rate_limit_buckets/i;

/** The statements the server logged (log_statement = 'all', only our database logs them). */
function postgresCounter(logFile: string): Counter {
  const statements = (from: number) =>
    readFileSync(logFile)
      .subarray(from)
      .toString()
      .split(/\n(?=\d{4}-\d\d-\d\d )/)
      .map((entry) => /\bLOG: {2}(?:statement|execute [^:]*): ([\s\S]*)$/.exec(entry)?.[1])
      .filter((s): s is string => s !== undefined);
  return {
    mark: () => statSync(logFile).size,
    look: () => undefined,
    since: (at) => {
      const logged = statements(at);
      return {
        writes: logged.filter((s) => WRITE.test(s) && !SETTLING.test(s)),
        settlings: logged.filter((s) => SETTLING.test(s)).length,
      };
    },
  };
}

type Case = { name: string; send(h: TestHamlet): Promise<void> };

function cases(key: string, session: () => string): Case[] {
  const auth = { authorization: `Bearer ${key}` };
  const mcpUrl = (h: TestHamlet) => h.hostUrl('127.0.0.1', '/c/acme/api/mcp');
  const mcp =
    (method: string, params?: object, headers = () => ({})) =>
    async (h: TestHamlet) => {
      const res = await rpc(
        mcpUrl(h),
        { jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) },
        { ...auth, ...headers() },
      );
      const body = res.json();
      assert.ok(res.status === 200 && body.result && !body.result.isError, res.text);
    };
  const get = (path: string, headers: Record<string, string>) => async (h: TestHamlet) => {
    const res = await raw(h.hostUrl('127.0.0.1', path), { headers });
    assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 200)}`);
  };
  const tool = (name: string, args: object) => mcp('tools/call', { name, arguments: args });
  return [
    { name: 'ping', send: mcp('ping') },
    {
      name: 'ping in a session',
      send: mcp('ping', undefined, () => ({ 'mcp-session-id': session() })),
    },
    { name: 'tools/list', send: mcp('tools/list') },
    { name: 'get_topic', send: tool('get_topic', { topic: TOPIC }) },
    { name: 'search_community', send: tool('search_community', { query: 'webhook signature' }) },
    { name: 'list_topics', send: tool('list_topics', {}) },
    { name: 'REST GET', send: get(`/c/acme/api/v1/topics/${TOPIC}`, auth) },
    { name: 'web topic page', send: get(`/c/acme/t/${TOPIC}`, { accept: 'text/html' }) },
  ];
}

let created = 0;
/** A write, counted beside the reads: the counters must see it. */
const createTopic = (key: string) => async (h: TestHamlet) => {
  const res = await rpc(
    h.hostUrl('127.0.0.1', '/c/acme/api/mcp'),
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'create_topic',
        arguments: {
          category: 'general',
          title: `Counting the writes of a request, question ${++created}`,
          body: 'How many statements does a question cost when it is written? Counted here.',
        },
      },
    },
    { authorization: `Bearer ${key}` },
  );
  assert.equal(res.json().result?.isError, false, res.text);
};

/** Runs every case on `h` (a few times to warm up, then COUNTED times counted). */
async function measure(h: TestHamlet, counter: Counter, t: TestContext) {
  const { key } = (await freshDemoAgentKey(h.store, h.services.agents))!;
  // A session (2025-11-25, opened by initialize) for the session case.
  const init = await rpc(
    h.hostUrl('127.0.0.1', '/c/acme/api/mcp'),
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'write-counter', version: '1' },
      },
    },
    { authorization: `Bearer ${key}` },
  );
  const sessionId = init.headers['mcp-session-id']!;
  assert.ok(sessionId, 'initialize opened a session');
  const started = performance.now();
  let settlings = 0;
  const writesOf = async (send: (h: TestHamlet) => Promise<void>) => {
    for (let i = 0; i < 3; i++) await send(h); // warm-up: caches, the search lexicon learned once
    await new Promise((r) => setTimeout(r, 50));
    const at = counter.mark();
    for (let i = 0; i < COUNTED; i++) {
      await send(h);
      counter.look();
    }
    await new Promise((r) => setTimeout(r, 100)); // work a response left running
    const counted = counter.since(at);
    settlings += counted.settlings;
    return counted.writes;
  };
  const found: Record<string, number> = {};
  const written: string[] = [];
  for (const c of cases(key, () => sessionId)) {
    const writes = await writesOf(c.send);
    found[c.name] = writes.length / COUNTED;
    written.push(...writes.map((w) => `${c.name}: ${w.replace(/\s+/g, ' ').slice(0, 160)}`));
  }
  const create = (await writesOf(createTopic(key))).length / COUNTED;
  const seconds = (performance.now() - started) / 1000;
  t.diagnostic(
    `writes per request: ${Object.entries(found)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}; create_topic ${create}; rate-limit settlings ${settlings} in ${seconds.toFixed(1)} s`,
  );
  assert.deepEqual(written, [], 'no read writes');
  assert.ok(create >= 1, `a create_topic writes (${create} per request): the counter sees writes`);
  // Once a second at most, whatever the number of requests (a hundred here).
  assert.ok(settlings <= Math.ceil(seconds) + 1, `${settlings} settlings in ${seconds} s`);
}

describe('SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-writes-'));
  const file = join(dir, 'hamlet.db');
  let h: TestHamlet;
  let counter: ReturnType<typeof sqliteCounter>;
  before(async () => {
    h = await startTestHamlet({ ...LIMITS, DATABASE_URL: `sqlite:${file}` }, { demo: true });
    counter = sqliteCounter(file);
  });
  after(async () => {
    counter?.close();
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  test('reads commit no write', async (t) => measure(h, counter, t));
});

const logFile = process.env.TEST_POSTGRES_LOG;
const setup = await postgresFromTemplate('writes', 'demo');
if (!setup.ok || !logFile) {
  const reason = setup.ok
    ? 'TEST_POSTGRES_LOG is not set (scripts/with-postgres.sh sets it)'
    : setup.reason;
  if (setup.ok) await setup.drop();
  if (process.env.CI === 'true')
    test('PostgreSQL: reads send no write statement', () => assert.fail(reason));
  else test('PostgreSQL: reads send no write statement', { skip: reason }, () => {});
} else {
  describe('PostgreSQL', () => {
    let h: TestHamlet;
    before(async () => {
      // Only this database logs its statements (set before Hamlet's connections open).
      const name = new URL(setup.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
      await admin.connect();
      try {
        await admin.query(`alter database ${name} set log_statement = 'all'`);
      } finally {
        await admin.end();
      }
      h = await startTestHamlet({ ...LIMITS, DATABASE_URL: setup.url }, { demo: true });
    });
    after(async () => {
      await h?.stop();
      await setup.drop();
    });
    test('reads send no write statement', async (t) => measure(h, postgresCounter(logFile), t));
  });
}
