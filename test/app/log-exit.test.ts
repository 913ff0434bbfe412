// Standard output's batched log lines survive a process that exits at once: every line arrives,
// whole and in order, even when the reader is slow enough to fill the pipe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { childScript } from '../helpers/child-script.ts';

async function linesOf(burst: number, readerDelayMs: number): Promise<string[]> {
  const child = spawn(
    process.execPath,
    [...childScript(import.meta.url, './log-burst-child.ts'), String(burst)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // Not reading at first: the pipe fills and the writer has to wait for the reader.
  child.stdout.pause();
  setTimeout(() => child.stdout.resume(), readerDelayMs);
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c: string) => (text += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0);
  return text.split('\n').filter(Boolean);
}

test('a process that exits right after a burst of log lines loses none of them', async () => {
  for (const [burst, delay] of [
    [3000, 0],
    [20000, 500],
  ] as const) {
    const lines = await linesOf(burst, delay);
    assert.equal(lines.length, burst + 100, `${burst} lines and 100 more, reader ${delay} ms late`);
    lines.forEach((line, n) => assert.equal((JSON.parse(line) as { i: number }).i, n));
  }
});
