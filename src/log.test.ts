// The logger under a storm of identical errors (a database outage): the first is written in full
// with its stack, the rest only as a count, at most one summary line per window and kind; distinct
// errors are kinds of their own; info lines are never summarised; a kind quiet for a window starts
// afresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { waitFor } from '../test/helpers/wait.ts';
import { createLogger, Repeats } from './log.ts';

function captured(repeatWindowMs: number) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger('info', sink, { repeatWindowMs }) };
}

test('1,000 identical errors: one in full, then one summary with the count', async () => {
  const { lines, logger } = captured(200);
  const outage = () => new Error('connect ECONNREFUSED 127.0.0.1:5432');
  for (let i = 0; i < 1000; i++) logger.error({ err: outage() }, 'MCP method failed');
  for (let i = 0; i < 3; i++) logger.info({ i }, 'request');
  logger.error({ err: new Error('another error') }, 'MCP method failed');
  assert.equal(lines.filter((l) => l.msg === 'MCP method failed').length, 2, 'one per kind');
  const first = lines[0]!;
  assert.match(String((first.err as { stack?: string }).stack), /ECONNREFUSED/);
  assert.equal(lines.filter((l) => l.msg === 'request').length, 3, 'info is never summarised');

  const summary = await waitFor(() => lines.find((l) => l.repeated !== undefined), {
    message: 'a summary line',
  });
  assert.equal(summary.repeated, 999);
  assert.equal(summary.level, 50);
  assert.match(String(summary.msg), /^MCP method failed \(repeated 999 times in the last \d+ s\)$/);
  assert.equal(summary.err, undefined, 'no stack in a summary');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(lines.filter((l) => l.repeated !== undefined).length, 1, 'one summary per window');
});

test('Repeats: counted per kind, told once per window, forgotten after a quiet window', () => {
  let now = 0;
  const r = new Repeats<number>(10_000, () => now);
  assert.equal(r.note('a', 1), true);
  assert.equal(r.note('a', 2), false);
  assert.equal(r.note('b', 1), true);
  assert.deepEqual(r.due(), [], 'nothing due within the window');
  now = 10_000;
  assert.deepEqual(r.due(), [{ kind: 'a', repeated: 1, sinceMs: 10_000, last: 2 }]);
  assert.equal(r.size, 1, 'b, quiet for a window, is forgotten');
  now = 25_000;
  assert.equal(r.note('a', 3), true, 'a kind quiet for a whole window starts afresh');
});
