// A real HTTP webhook receiver for the tests: records every request (headers and raw body) and
// answers by path with a programmable behaviour (status sequence, delay).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number };
export type Behaviour = { statuses?: number[]; delayMs?: number; location?: string };

export class Receiver {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly counts = new Map<string, number>();
  private server?: Server;
  port = 0;

  /** How `path` answers each delivery (by webhook-id): statuses in turn (the last one repeats), after an optional delay. */
  on(path: string, behaviour: Behaviour): this {
    this.behaviours.set(path, behaviour);
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({
          path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const b = this.behaviours.get(path) ?? {};
        const key = `${path} ${String(req.headers['webhook-id'] ?? '')}`;
        const n = this.counts.get(key) ?? 0;
        this.counts.set(key, n + 1);
        const statuses = b.statuses ?? [200];
        const status = statuses[Math.min(n, statuses.length - 1)]!;
        const answer = () => {
          res.writeHead(status, b.location ? { location: b.location } : {});
          res.end(status >= 400 ? `status ${status} from the test receiver` : 'ok');
        };
        if (b.delayMs) setTimeout(answer, b.delayMs).unref();
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** Polls `check` until it is true or `ms` pass. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms: number,
  what: string,
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
}
