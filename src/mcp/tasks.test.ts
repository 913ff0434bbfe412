// The task registry's limits: a task is kept for its ttlMs and then gone (its work stopped), one
// caller may have only so many unfinished tasks on an endpoint, and a task answers only its starter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RpcError } from './jsonrpc.ts';
import { RunAsTask } from './surface.ts';
import { TaskRegistry } from './tasks.ts';

/** Work that runs until cancelled, telling `stopped` why it ended. */
const endless = (stopped: string[]) =>
  new RunAsTask(
    (task) =>
      new Promise((_done, fail) =>
        task.signal.addEventListener('abort', () => {
          stopped.push(String((task.signal.reason as Error).message));
          fail(new Error('stopped'));
        }),
      ),
  );

const started = () => new Promise((done) => setImmediate(done));

test('a task is gone after its ttlMs, and its work is stopped', async () => {
  let now = 1_000_000;
  const stopped: string[] = [];
  const tasks = new TaskRegistry(
    () => {},
    { ttlMs: 60_000 },
    () => now,
  );
  const { taskId, ttlMs } = tasks.start('s', 'alice', endless(stopped));
  assert.equal(ttlMs, 60_000);
  await started();
  now += 59_999;
  assert.equal(tasks.get('s', 'alice', taskId).status, 'working');
  now += 1;
  assert.throws(
    () => tasks.get('s', 'alice', taskId),
    (e: RpcError) => e.code === -32602,
  );
  tasks.start('s', 'alice', endless(stopped)); // a new start sweeps what expired
  assert.deepEqual(stopped, ['expired']);
  tasks.stop();
});

test('one caller may have at most perOwner unfinished tasks on an endpoint; others are not counted', () => {
  const tasks = new TaskRegistry(() => {}, { perOwner: 2 });
  const stopped: string[] = [];
  const first = tasks.start('s', 'alice', endless(stopped));
  tasks.start('s', 'alice', endless(stopped));
  assert.throws(
    () => tasks.start('s', 'alice', endless(stopped)),
    (e: RpcError) => e.code === -32600 && /At most 2 unfinished tasks/.test(e.message),
  );
  tasks.start('s', 'bob', endless(stopped));
  tasks.start('other-endpoint', 'alice', endless(stopped));
  tasks.cancel('s', 'alice', first.taskId);
  tasks.start('s', 'alice', endless(stopped));
  assert.throws(
    () => tasks.get('s', 'bob', first.taskId),
    (e: RpcError) => e.code === -32602,
  );
  tasks.stop();
});
