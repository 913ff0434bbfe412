// Child-process entry: serves one bench server (argv[2], see servers.ts) on 127.0.0.1 and answers
// the parent's questions over IPC. The parent forks it with `--import tsx` (and `--expose-gc` for the
// memory bench), so the server never shares an event loop or a heap with the load generator.
import type { AddressInfo } from 'node:net';
import { createBenchServer, SERVER_KINDS, type ServerKind } from './servers.ts';

export type ChildCommand = 'cpu' | 'heap' | 'stop';
export type CpuSample = { userMicros: number; systemMicros: number; wallMicros: number };
export type HeapSample = {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  rss: number;
  sessions?: number;
};
export type ChildReply = { id: number; cpu?: CpuSample; heap?: HeapSample; error?: string };
export type ChildReady = { ready: true; port: number };

const kind = process.argv[2] as ServerKind;
if (!SERVER_KINDS.includes(kind))
  throw new Error(`Unknown server kind "${kind}"; expected one of ${SERVER_KINDS.join(', ')}.`);
if (!process.send)
  throw new Error('server-child.ts runs as a forked child (it needs an IPC channel).');

const bench = createBenchServer(kind);
// Keep-alive sockets stay open for the whole run (autocannon reuses its connections).
bench.server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => bench.server.listen(0, '127.0.0.1', resolve));

async function settledHeap(): Promise<HeapSample> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('heap samples need the child to run with --expose-gc');
  bench.server.closeIdleConnections();
  // Several full collections with turns of the event loop between them, so that closed sockets,
  // finalizers and weak references are all gone before reading the heap.
  for (let i = 0; i < 6; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return {
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    rss: m.rss,
    sessions: await bench.sessionCount?.(),
  };
}

async function answer(msg: { id: number; cmd: ChildCommand }): Promise<void> {
  const reply: ChildReply = { id: msg.id };
  try {
    if (msg.cmd === 'cpu') {
      const { user, system } = process.cpuUsage();
      reply.cpu = {
        userMicros: user,
        systemMicros: system,
        wallMicros: Number(process.hrtime.bigint() / 1000n),
      };
    } else if (msg.cmd === 'heap') {
      reply.heap = await settledHeap();
    } else if (msg.cmd === 'stop') {
      bench.stop();
      bench.server.closeAllConnections();
      bench.server.close();
      process.send!(reply, () => process.exit(0));
      return;
    }
  } catch (err) {
    reply.error = err instanceof Error ? err.message : String(err);
  }
  process.send!(reply);
}
process.on('message', (msg: { id: number; cmd: ChildCommand }) => void answer(msg));
process.on('disconnect', () => process.exit(0));

process.send({
  ready: true,
  port: (bench.server.address() as AddressInfo).port,
} satisfies ChildReady);
