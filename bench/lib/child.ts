// Parent side of server-child.ts: fork a bench server, talk to it, stop it.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type {
  ChildCommand,
  ChildReady,
  ChildReply,
  CpuSample,
  HeapSample,
} from './server-child.ts';
import { MCP_PATH, type ServerKind } from './servers.ts';

export type ServerChild = {
  kind: ServerKind;
  pid: number;
  url: string;
  cpu(): Promise<CpuSample>;
  heap(): Promise<HeapSample>;
  stop(): Promise<void>;
};

const CHILD_ENTRY = fileURLToPath(new URL('./server-child.ts', import.meta.url));

export async function startServerChild(
  kind: ServerKind,
  options: { exposeGc?: boolean } = {},
): Promise<ServerChild> {
  const child: ChildProcess = fork(CHILD_ENTRY, [kind], {
    // MCP_BENCH_CHILD_ARGS adds node flags to the server process, e.g. "--cpu-prof --cpu-prof-dir=prof".
    execArgv: [
      '--import',
      'tsx',
      ...(options.exposeGc ? ['--expose-gc'] : []),
      ...(process.env.MCP_BENCH_CHILD_ARGS ?? '').split(/\s+/).filter(Boolean),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${kind} server did not start within 30 s`)),
      30_000,
    );
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`${kind} server exited with code ${code} before listening`)),
    );
    child.on('message', (m: ChildReady) => {
      if (m && (m as ChildReady).ready) {
        clearTimeout(timer);
        resolve(m.port);
      }
    });
  });
  child.removeAllListeners('exit');

  let nextId = 1;
  const pending = new Map<number, { resolve(r: ChildReply): void; reject(e: Error): void }>();
  child.on('message', (m: ChildReply) => {
    const p = typeof m?.id === 'number' ? pending.get(m.id) : undefined;
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(`${kind} server: ${m.error}`));
    else p.resolve(m);
  });
  child.on('exit', (code) => {
    for (const p of pending.values()) p.reject(new Error(`${kind} server exited (code ${code})`));
    pending.clear();
  });
  const ask = (cmd: ChildCommand) =>
    new Promise<ChildReply>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ id, cmd });
    });

  return {
    kind,
    pid: child.pid!,
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    cpu: async () => (await ask('cpu')).cpu!,
    heap: async () => (await ask('heap')).heap!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await ask('stop').catch(() => {});
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
