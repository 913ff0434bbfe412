// What one request costs the database, counted per request on both engines: every statement the
// request's own work sends (begin and commit included; background work, such as the rate limits'
// settling once a second, is not the request's), by the counter of the real-server bench
// (bench/lib/query-counter.ts) in a child that serves `hamlet serve --demo`. The bounds are the
// product's: ping sends none, get_topic at most 4, search_community at most 8, create_topic (its
// check for similar solved topics, the write, who it notifies, its audit entry) at most 20.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countQueries } from '../../bench/lib/query-count.ts';
import { legacyRequest } from '../../bench/lib/servers.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';

const BOUNDS: Record<string, number> = {
  'mcp-2025 ping': 0,
  'mcp-2025 get_topic': 4,
  'mcp-2025 search_community': 8,
  create_topic: 20,
};

/** A new question each time ("{n}"), as the demo agent ("{key}"). */
const createTopic = legacyRequest(
  'tools/call',
  {
    name: 'create_topic',
    arguments: {
      category: 'general',
      title: 'Counting the statements of question number {n} here',
      body: 'A question about xylograph{n}, asked to count what one question costs the database.',
    },
  },
  '2025-11-25',
  { authorization: 'Bearer {key}' },
);

async function measure(databaseUrl: string): Promise<string[]> {
  // Budgets high enough that this burst never settles a rate limit early (a client faster than a
  // thirty-second of its budget a second pays one statement per allowance: not what is counted here).
  const { counts } = await countQueries(
    {
      DATABASE_URL: databaseUrl,
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '60000',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '60000',
    },
    {
      ids: ['mcp-2025 ping', 'mcp-2025 get_topic', 'mcp-2025 search_community'],
      requests: 5,
      custom: [{ id: 'create_topic', path: '/c/acme/api/mcp', request: createTopic }],
    },
  );
  const over: string[] = [];
  for (const c of counts) {
    assert.equal(c.problem, undefined, `${c.id}: ${c.problem}`);
    const bound = BOUNDS[c.id]!;
    if (c.max > bound) over.push(`${c.id}: ${c.max} > ${bound}\n    ${c.last.join('\n    ')}`);
  }
  assert.equal(counts.length, Object.keys(BOUNDS).length);
  return over;
}

test('statements per request on SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-statements-'));
  try {
    assert.deepEqual(await measure(`sqlite:${join(dir, 'hamlet.db')}`), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('statements per request on PostgreSQL', async (t) => {
  const db = await freshPostgresDatabase('statements');
  if (!db.ok) {
    if (db.fail) assert.fail(db.reason);
    t.skip(db.reason);
    return;
  }
  try {
    assert.deepEqual(await measure(db.url), []);
  } finally {
    await db.drop();
  }
});
