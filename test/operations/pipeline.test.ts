// Every call takes the same steps: a caller without a key learns that first, every JSON-RPC message
// counts against the per-IP budget (batch members too), content methods count against the key's
// budget like tools do, and the two-tool mode's search is limited like any tool. Reads write no
// audit row (the access log records them); writes do.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

let h: TestHamlet;
let acme: Community;
const system = systemActor('test');

before(async () => {
  h = await startTestHamlet(
    { HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000', HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '50' },
    { demo: true },
  );
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(() => h.stop());

const community = () => h.hostUrl('acme.localhost', '/api/mcp');

test('a call without a key and with bad arguments is told about the key first', async () => {
  const res = await rpc(community(), {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search_community', arguments: { query: '', filters: { limit: 500 } } },
  });
  const { result } = res.json();
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent.code, 'unauthorized');
  assert.match(result.structuredContent.error, /This tool needs an agent key of community "acme"/);
});

test('resources/read without a key names what needs the key', async () => {
  const res = await rpc(community(), {
    jsonrpc: '2.0',
    id: 1,
    method: 'resources/read',
    params: { uri: 'hamlet://acme/categories' },
  });
  assert.match(
    res.json().error.message,
    /^Reading this resource needs an agent key of community "acme"/,
  );
});

test('content reads count against the key like tool calls: 60 resources/read meet a limit of 50', async () => {
  const { key } = await h.services.agents.create(system, acme, {
    name: 'reader-limits',
    scopes: [],
  });
  const batch = Array.from({ length: 60 }, (_, i) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'resources/read',
    params: { uri: 'hamlet://acme/categories' },
  }));
  const res = await rpc(community(), batch, { authorization: `Bearer ${key}` });
  assert.equal(res.status, 200);
  const answers = res.json() as Array<{
    result?: unknown;
    error?: { code: number; message: string; data?: { retryAfterSeconds: number } };
  }>;
  const limited = answers.filter((a) => a.error?.code === -32005);
  assert.equal(answers.filter((a) => a.result).length, 50, 'the first 50 are answered');
  assert.equal(limited.length, 10, 'the rest are rate-limited');
  assert.match(
    limited[0]!.error!.message,
    /Rate limit reached: 50 requests per minute for this key/,
  );
  assert.ok(limited[0]!.error!.data!.retryAfterSeconds >= 1);
  const { entries } = await h.services.audit.list(system, acme, { limit: 200 });
  assert.equal(
    entries.filter((e) => e.action === 'mcp:resources/read').length,
    0,
    'reads are not audited',
  );
});

test('a batch of 100 anonymous calls costs 100 from the per-IP budget of 150', async () => {
  const own = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '150' });
  try {
    const url = own.hostUrl('localhost', '/api/mcp');
    const batch = Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'search_network', arguments: { query: 'webhook' } },
    }));
    const first = await rpc(url, batch);
    assert.equal(first.status, 200);
    assert.equal((first.json() as unknown[]).length, 100);
    const second = await rpc(url, batch);
    assert.equal(
      second.status,
      429,
      'only 50 of the 150 are left: a second batch of 100 is refused whole',
    );
    assert.ok(Number(second.headers['retry-after']) >= 1);
    assert.equal((await rpc(url, batch[0])).status, 200, 'what is left still serves single calls');
  } finally {
    await own.stop();
  }
});

test('the two-tool search needs the key and is rate-limited; a read, it is not audited', async () => {
  await h.services.mcpConfig.set(system, acme, { tool_mode: 'two-tool' });
  // The endpoint cache picks the change up within its few seconds.
  const { key } = await h.services.agents.create(system, acme, {
    name: 'two-tool-user',
    scopes: [],
  });
  const call = (k?: string) =>
    rpc(
      community(),
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'find an answer' } },
      },
      k ? { authorization: `Bearer ${k}` } : {},
    );
  let listed: string[] = [];
  for (let i = 0; i < 100 && listed.join() !== 'search,execute'; i++) {
    listed = (await rpc(community(), { jsonrpc: '2.0', id: 1, method: 'tools/list' }))
      .json()
      .result.tools.map((t: { name: string }) => t.name);
    if (listed.join() !== 'search,execute') await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(listed, ['search', 'execute']);
  assert.equal((await call()).json().result.structuredContent.code, 'unauthorized');
  const found = (await call(key)).json().result;
  assert.equal(found.isError, false);
  assert.ok(
    found.structuredContent.tools.some((t: { name: string }) => t.name === 'suggest_answer'),
  );
  let limited;
  for (let i = 0; i < 60 && !limited; i++) {
    const r = (await call(key)).json().result;
    if (r.isError) limited = r.structuredContent;
  }
  assert.equal(limited?.code, 'rate_limited');
  assert.ok(limited.retry_after_seconds >= 1);
  const { entries } = await h.services.audit.list(system, acme, { limit: 200 });
  assert.ok(!entries.some((e) => e.action === 'tool:search'));
  await h.services.mcpConfig.set(system, acme, {});
});
