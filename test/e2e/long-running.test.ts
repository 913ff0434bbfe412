// suggest_answer runs long when the embedding endpoint is slow: a 2026-07-28 client that declares
// the Tasks extension gets a task handle past 2 s and polls it to the same answer a plain call gets
// inline; the task is its key's alone. The embedding endpoint is a local stand-in whose delay the
// test sets.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { rpc } from '../mcp/http-client.ts';
import { waitFor } from '../helpers/wait.ts';

let embeddings: Server;
let delayMs = 0;
let h: TestHamlet;
let key: string;
let otherKey: string;

before(async () => {
  // An OpenAI-compatible /embeddings that answers after `delayMs`, a fixed vector per input.
  embeddings = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const input = (JSON.parse(body) as { input: string[] }).input;
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            data: input.map((t, index) => ({ index, embedding: [t.length % 7, 1, 2, 3] })),
          }),
        );
      }, delayMs);
    });
  });
  await new Promise<void>((done) => embeddings.listen(0, '127.0.0.1', done));
  const port = (embeddings.address() as AddressInfo).port;
  h = await startTestHamlet(
    {
      HAMLET_EMBEDDINGS_URL: `http://127.0.0.1:${port}/v1`,
      HAMLET_EMBEDDINGS_MODEL: 'stand-in',
      // The backfill's progress lines are debug lines.
      LOG_LEVEL: 'debug',
    },
    { demo: true },
  );
  // Every post has its vector before the test slows the endpoint down: otherwise the background
  // backfill, still running, changes the ranking between the two calls compared below.
  await waitFor(
    () =>
      h.logs.some((chunk) =>
        chunk.split('\n').some((line) => {
          if (!line.includes('post embeddings filled')) return false;
          const p = (JSON.parse(line) as { embeddings?: { done: number; total: number } })
            .embeddings;
          return p !== undefined && p.total > 0 && p.done === p.total;
        }),
      ),
    { message: 'every post to have its vector', timeoutMs: 30_000 },
  );
  const acme = (await h.store.communities.getBySlug('acme'))!;
  for (const name of ['slow-bot', 'other-bot']) {
    const made = await h.services.agents.create(systemActor('test'), acme, { name, scopes: [] });
    if (name === 'slow-bot') key = made.key;
    else otherKey = made.key;
  }
});
after(async () => {
  await h?.stop();
  await new Promise((done) => embeddings?.close(done));
});

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

async function call(
  method: string,
  params: Record<string, unknown>,
  o: { caps?: Record<string, unknown>; bearer?: string } = {},
) {
  const name = (params.name ?? params.taskId) as string | undefined;
  const res = await rpc(
    h.hostUrl('acme.localhost', '/api/mcp'),
    {
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': o.caps ?? {},
        },
      },
    },
    {
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${o.bearer ?? key}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
  );
  return res.json() as { result?: any; error?: any };
}

test('a slow suggest_answer becomes a task for a client that follows tasks, with the same answer', async () => {
  const topics = (await call('tools/call', { name: 'list_topics', arguments: {} })).result;
  const question = topics.structuredContent.topics[0].title as string;
  delayMs = 3000;

  const plain = (await call('tools/call', { name: 'suggest_answer', arguments: { question } }))
    .result;
  assert.equal(plain.resultType, 'complete');
  assert.equal(plain.isError, false);

  const created = (
    await call('tools/call', { name: 'suggest_answer', arguments: { question } }, { caps: TASKS })
  ).result;
  assert.equal(created.resultType, 'task');
  const { taskId } = created;
  // Working, unless a loaded machine took the last second to ask.
  assert.match(
    (await call('tasks/get', { taskId }, { caps: TASKS })).result.status,
    /^(working|completed)$/,
  );
  // Another agent of the same community does not see it.
  const foreign = await call('tasks/get', { taskId }, { caps: TASKS, bearer: otherKey });
  assert.equal(foreign.error.code, -32602);

  let done: any;
  await waitFor(
    async () => {
      done = (await call('tasks/get', { taskId }, { caps: TASKS })).result;
      return done.status === 'completed';
    },
    { message: 'the task to complete', timeoutMs: 30_000 },
  );
  assert.equal(done.result.isError, false);
  assert.deepEqual(done.result.structuredContent, plain.structuredContent);
});

test('a quick suggest_answer is answered at once, no task, to the same client', async () => {
  delayMs = 0;
  const quick = (
    await call(
      'tools/call',
      { name: 'suggest_answer', arguments: { question: 'anything at all' } },
      { caps: TASKS },
    )
  ).result;
  assert.equal(quick.resultType, 'complete');
  assert.ok(!('taskId' in quick));
});
