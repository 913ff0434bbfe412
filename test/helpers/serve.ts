// `hamlet serve` as an operator starts it (by default from its bundle, see hamlet-bin.ts), in its own
// process (so a test can kill it), and a free loopback port to give it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { hamletArgs } from './hamlet-bin.ts';

/**
 * A loopback port free at the time of asking. It is drawn at random below the kernel's ephemeral
 * range (32768 and up on Linux), so no outgoing connection of another test (to PostgreSQL, to a
 * browser) can take it between this probe and the caller's listen; another file drawing the same
 * port in that window is a 1-in-12,000 chance, which startTestHamlet covers by trying again.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
}

async function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export type Served = { child: ChildProcess; banner: string; key?: string };

/**
 * Starts `hamlet serve` (with `--demo`: creating the demo once and printing a fresh agent key) and
 * resolves once its banner is out, with the banner and the key it printed. `started` collects the
 * process, so a caller can stop everything it started even when a later start fails.
 */
export async function serveProcess(
  env: Record<string, string>,
  options: { demo?: boolean; started?: ChildProcess[] } = {},
): Promise<Served> {
  const demo = options.demo ?? false;
  const command = [...(await hamletArgs()), 'serve', ...(demo ? ['--demo'] : [])];
  const child = spawn(process.execPath, command, {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  options.started?.push(child);
  let banner = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in time:\n${banner}`)), 60_000);
    child.stderr!.on('data', (c: Buffer) => {
      banner += c;
      if (demo ? /Try it:/.test(banner) : /Hamlet is running\./.test(banner)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hamlet exited with ${code}:\n${banner}`));
    });
  });
  return { child, banner, key: /agent key:\s+(hmlt_live_[A-Za-z0-9]+)/.exec(banner)?.[1] };
}
