// Starts test/store/hold-lock-child.ts: another process that holds a SQLite file's write lock for a
// while. Resolves once the lock is held, with a promise of its release.
import { spawn } from 'node:child_process';
import { childScript } from '../helpers/child-script.ts';

export async function holdWriteLock(
  file: string,
  ms: number,
): Promise<{ lockedAt: number; released: Promise<number> }> {
  const child = spawn(
    process.execPath,
    [...childScript(import.meta.url, './hold-lock-child.ts'), file, String(ms)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let lockedAt = 0;
  let onLocked: () => void = () => undefined;
  const locked = new Promise<void>((resolve) => (onLocked = resolve));
  const released = new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c;
      if (!lockedAt && out.includes('locked\n')) {
        lockedAt = performance.now();
        onLocked();
      }
      if (out.includes('released\n')) resolve(performance.now());
    });
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.once('exit', (code) => {
      if (!out.includes('released\n')) reject(new Error(`lock holder exited with ${code}: ${out}`));
    });
  });
  await Promise.race([locked, released]);
  return { lockedAt, released };
}
