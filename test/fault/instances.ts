// Three `hamlet serve` processes (or as many as named) over one PostgreSQL database, as an operator runs them (each on
// its own port, no proxy: the fault suite talks to each instance directly). Every exit is recorded,
// with the end of the instance's stderr, so a test can say which instance died and why.
import type { ChildProcess } from 'node:child_process';
import { freePort, serveProcess } from '../helpers/serve.ts';

export type Instance = {
  name: string;
  port: number;
  pid: number;
  url(path: string): string;
  child: ChildProcess;
  /** The end of what the process wrote to stderr (a crash's stack trace). */
  stderr(): string;
};

export type Instances = {
  list: Instance[];
  /** Instances that exited, with their code or signal and the end of their stderr. */
  exits: string[];
  stop(): Promise<void>;
};

/**
 * Starts the three at once (the database already migrated and seeded by the caller); `names` and
 * `envOf` (settings of one instance only) for other sets.
 */
export async function startInstances(
  databaseUrl: string,
  env: Record<string, string>,
  names: string[] = ['A', 'B', 'C'],
  envOf: (name: string) => Record<string, string> = () => ({}),
): Promise<Instances> {
  const started: ChildProcess[] = [];
  const exits: string[] = [];
  const common = { ...env, DATABASE_URL: databaseUrl, HOST: '127.0.0.1' };
  const instance = async (name: string): Promise<Instance> => {
    const port = await freePort();
    const served = await serveProcess(
      { ...common, ...envOf(name), PORT: String(port) },
      { started },
    );
    let tail = '';
    served.child.stderr!.on('data', (c: Buffer) => (tail = (tail + String(c)).slice(-4000)));
    served.child.once('exit', (code, signal) =>
      exits.push(`${name} exited (${signal ?? code}):\n${tail}`),
    );
    return {
      name,
      port,
      pid: served.child.pid!,
      url: (path: string) => `http://127.0.0.1:${port}${path}`,
      child: served.child,
      stderr: () => tail,
    };
  };
  try {
    const list = await Promise.all(names.map(async (name) => instance(name)));
    return {
      list,
      exits,
      stop: async () => {
        await Promise.all(started.map(async (child) => stopChild(child)));
      },
    };
  } catch (err) {
    for (const child of started) child.kill('SIGKILL');
    throw err;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Polls GET /readyz until it answers 200; resolves with the milliseconds that took. */
export async function readyWithin(instance: Instance, ms: number): Promise<number> {
  const started = performance.now();
  const deadline = started + ms;
  for (;;) {
    const status = await fetch(instance.url('/readyz'), { signal: AbortSignal.timeout(1_000) })
      .then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      })
      .catch(() => 0);
    if (status === 200) return Math.round(performance.now() - started);
    if (performance.now() > deadline)
      throw new Error(`${instance.name}: /readyz not 200 within ${ms} ms (last ${status})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
