// The Tasks extension (SEP-2663) on the real engine and transport, over raw HTTP (the SDK client
// does not speak it): a client that declares it gets a task handle for work that runs on, polls it
// to its result, answers its questions, cancels it and hears its status on a listen stream; a task
// is its starter's alone; a client that did not declare it gets the result inline, or -32021.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, type FixtureServer } from '../conformance/fixture-server.ts';
import { waitFor } from '../helpers/wait.ts';
import { readSse, rpc } from './http-client.ts';

let server: FixtureServer;
before(async () => {
  server = await startFixtureServer();
});
after(() => server.close());

const V = '2026-07-28';
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const NAMED: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** One 2026-07-28 request with its mirrored headers; `caps` are the client capabilities it declares. */
async function call(
  method: string,
  params: Record<string, unknown>,
  o: { caps?: Record<string, unknown>; key?: string } = {},
) {
  const name = params[NAMED[method] ?? ''] as string | undefined;
  const res = await rpc(
    server.url,
    {
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': V,
          'io.modelcontextprotocol/clientCapabilities': o.caps ?? TASKS,
        },
      },
    },
    {
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': V,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...(o.key ? { authorization: `Bearer ${o.key}` } : {}),
    },
  );
  return { status: res.status, ...(res.json() as { result?: any; error?: any }) };
}

const tool = (name: string, args: Record<string, unknown> = {}, o = {}) =>
  call('tools/call', { name, arguments: args }, o);

async function settled(taskId: string, o = {}) {
  let task: any;
  await waitFor(
    async () => {
      task = (await call('tasks/get', { taskId }, o)).result;
      return ['completed', 'failed', 'cancelled'].includes(task?.status);
    },
    { message: `task ${taskId} to finish`, timeoutMs: 10_000 },
  );
  return task;
}

describe('a client that declares the extension', () => {
  test('gets a task handle, polls it while it works, then finds the result inlined', async () => {
    const created = (await tool('slow_compute', { seconds: 2, label: 'pi' })).result;
    assert.equal(created.resultType, 'task');
    assert.equal(created.status, 'working');
    assert.equal(typeof created.ttlMs, 'number');
    assert.ok(!('result' in created));
    const working = (await call('tasks/get', { taskId: created.taskId })).result;
    assert.equal(working.status, 'working');
    assert.match(working.statusMessage, /computing pi/);
    const done = await settled(created.taskId);
    assert.equal(done.status, 'completed');
    assert.equal(done.result.content[0].text, 'computed pi after 2 s');
    assert.equal(done.resultType, 'complete');
  });

  test('a tool error completes the task with isError; a protocol error fails it with the error', async () => {
    const toolError = await settled((await tool('failing_job')).result.taskId);
    assert.equal(toolError.status, 'completed');
    assert.equal(toolError.result.isError, true);
    const broken = await settled((await tool('protocol_error_job')).result.taskId);
    assert.equal(broken.status, 'failed');
    assert.equal(broken.error.code, -32603);
    assert.ok(!('result' in broken));
  });

  test('its questions make it input_required until every one is answered through tasks/update', async () => {
    const { taskId } = (await tool('multi_input')).result;
    let asked: any;
    await waitFor(async () => {
      asked = (await call('tasks/get', { taskId })).result;
      return asked.status === 'input_required';
    });
    const [first, second] = Object.keys(asked.inputRequests);
    assert.ok(first && second);
    const answer = (name: string) => ({ action: 'accept', content: { name } });
    const ack = await call('tasks/update', { taskId, inputResponses: { [first]: answer('Ada') } });
    assert.deepEqual(Object.keys(ack.result).sort(), ['_meta', 'resultType']);
    const half = (await call('tasks/get', { taskId })).result;
    assert.equal(half.status, 'input_required');
    assert.deepEqual(Object.keys(half.inputRequests), [second]);
    await call('tasks/update', { taskId, inputResponses: { [second]: answer('Grace') } });
    assert.equal((await settled(taskId)).result.content[0].text, 'Got Ada and Grace.');
  });

  test('tasks/cancel stops the work: the task is cancelled, and cancelling again is the same ack', async () => {
    const { taskId } = (await tool('slow_compute', { seconds: 60 })).result;
    const ack = (await call('tasks/cancel', { taskId })).result;
    assert.equal(ack.resultType, 'complete');
    assert.equal((await settled(taskId)).status, 'cancelled');
    assert.equal((await call('tasks/cancel', { taskId })).result.resultType, 'complete');
  });

  test("a task is its starter's: another credential is told it does not exist", async () => {
    const { taskId } = (await tool('slow_compute', { seconds: 5 }, { key: 'alice' })).result;
    assert.equal((await call('tasks/get', { taskId }, { key: 'alice' })).result.taskId, taskId);
    for (const key of ['mallory', undefined]) {
      const other = await call('tasks/get', { taskId }, { key });
      assert.equal(other.error.code, -32602);
      assert.equal((await call('tasks/cancel', { taskId }, { key })).error.code, -32602);
    }
    await call('tasks/cancel', { taskId }, { key: 'alice' });
  });

  test('a listen stream that names the task hears each status change as notifications/tasks', async () => {
    const { taskId } = (await tool('confirm_delete', { filename: 'a.txt' })).result;
    const controller = new AbortController();
    const res = await fetch(server.url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': V,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'watch',
        method: 'subscriptions/listen',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': V,
            'io.modelcontextprotocol/clientCapabilities': TASKS,
          },
          notifications: { taskIds: [taskId, 'not-a-task'] },
        },
      }),
    });
    let heard: any[] = [];
    const reading = readSse(
      res,
      (events) =>
        (heard = events.map((e) => JSON.parse(e.data))).some(
          (m) => m.params?.status === 'completed',
        ),
      8000,
    );
    await waitFor(() => heard.length >= 1, { message: 'the acknowledgement' });
    assert.deepEqual(heard[0].params.notifications, { taskIds: [taskId] });
    let asked: any;
    await waitFor(async () => {
      asked = (await call('tasks/get', { taskId })).result;
      return asked.status === 'input_required';
    });
    const key = Object.keys(asked.inputRequests)[0]!;
    await call('tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    await reading;
    controller.abort();
    // The task was already input_required when the stream opened: it hears what came after.
    const statuses = heard.filter((m) => m.method === 'notifications/tasks');
    assert.deepEqual(
      statuses.map((m) => m.params.status),
      ['working', 'completed'],
    );
    assert.equal(statuses.at(-1).params.result.content[0].text, 'Deleted a.txt.');
    assert.equal(statuses[0].params._meta['io.modelcontextprotocol/subscriptionId'], 'watch');
  });
});

describe('a client that did not declare the extension', () => {
  test('gets the work done inline, -32021 for a tool that runs only as a task, and no task methods', async () => {
    const inline = await tool('slow_compute', { seconds: 0, label: 'now' }, { caps: {} });
    assert.equal(inline.result.resultType, 'complete');
    assert.equal(inline.result.content[0].text, 'computed now after 0 s');
    const required = await tool('failing_job', {}, { caps: {} });
    assert.equal(required.status, 400);
    assert.equal(required.error.code, -32021);
    assert.deepEqual(required.error.data.requiredCapabilities.extensions, {
      'io.modelcontextprotocol/tasks': {},
    });
    const get = await call('tasks/get', { taskId: 'x' }, { caps: {} });
    assert.equal(get.error.code, -32021);
  });
});
