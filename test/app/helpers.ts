// Starts a real Hamlet (src/main.ts wiring) on a throwaway SQLite file and a free port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/config.ts';
import { startHamlet, type Hamlet } from '../../src/main.ts';
import { freePort } from '../helpers/serve.ts';

export type TestHamlet = Hamlet & {
  port: number;
  logs: string[];
  hostUrl(host: string, path: string): string;
  stop(): Promise<void>;
};

export async function startTestHamlet(
  env: Record<string, string> = {},
  options: { keepDatabase?: boolean; demo?: boolean } = {},
): Promise<TestHamlet> {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-app-'));
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  // A real port number (not 0) so that the public URLs Hamlet builds carry it, as in production.
  const config = loadConfig({
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`,
    LOG_LEVEL: 'info',
    ...env,
  });
  const hamlet = await startHamlet(config, {
    logDestination: sink,
    handleSignals: false,
    demo: options.demo,
  });
  const port = Number(new URL(hamlet.url).port);
  return {
    ...hamlet,
    port,
    logs,
    hostUrl: (host, path) => `http://${host}:${port}${path}`,
    async stop() {
      await hamlet.close();
      if (!options.keepDatabase) rmSync(dir, { recursive: true, force: true });
    },
  };
}
