// Starts a real Hamlet (src/main.ts wiring) on a throwaway SQLite file and a free port. A SQLite
// file that does not exist yet, or an empty PostgreSQL database (freshPostgresDatabase's), starts as
// a copy of the migrated (with `demo`: the seeded) template (test/helpers/template.ts), so a test
// pays neither the migrations nor the demo seed; `template: false` runs them for real.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/config.ts';
import { startHamlet, type Hamlet, type StartOptions } from '../../src/main.ts';
import { freePort } from '../helpers/serve.ts';
import { postgresTemplateIfEmpty, sqliteFromTemplate } from '../helpers/template.ts';

export type TestHamlet = Hamlet & {
  port: number;
  logs: string[];
  hostUrl(host: string, path: string): string;
  stop(): Promise<void>;
};

export type TestHamletOptions = {
  /** Keep the SQLite file after stop() (a restart test reopens it). */
  keepDatabase?: boolean;
  /** Start with the demo communities (`serve --demo`). */
  demo?: boolean;
  /** Copy a new SQLite database from the template (default true); false migrates and seeds it. */
  template?: boolean;
  /** Smaller limits for the per-community caches (startHamlet's cacheLimits). */
  cacheLimits?: StartOptions['cacheLimits'];
  /** URLs per sitemap file (startHamlet's sitemapUrlsPerFile). */
  sitemapUrlsPerFile?: number;
};

export async function startTestHamlet(
  env: Record<string, string> = {},
  options: TestHamletOptions = {},
): Promise<TestHamlet> {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-app-'));
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const databaseUrl = env.DATABASE_URL ?? `sqlite:${join(dir, 'hamlet.db')}`;
  const file = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : undefined;
  const kind = options.demo ? 'demo' : 'migrated';
  if ((options.template ?? true) && file && file !== ':memory:' && !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    await sqliteFromTemplate(file, kind);
  } else if ((options.template ?? true) && /^postgres(ql)?:\/\//.test(databaseUrl)) {
    await postgresTemplateIfEmpty(databaseUrl, kind);
  }
  const hamlet = await startOnFreePort(databaseUrl, env, options, sink);
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

/**
 * startHamlet on a real port number (not 0, so that the public URLs Hamlet builds carry it, as in
 * production); a port taken by another process between the probe and the listen is drawn again.
 */
async function startOnFreePort(
  databaseUrl: string,
  env: Record<string, string>,
  options: TestHamletOptions,
  sink: Writable,
): Promise<Hamlet> {
  for (let attempt = 1; ; attempt++) {
    const config = loadConfig({
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'info',
      ...env,
    });
    try {
      return await startHamlet(config, {
        logDestination: sink,
        handleSignals: false,
        demo: options.demo,
        cacheLimits: options.cacheLimits,
        sitemapUrlsPerFile: options.sitemapUrlsPerFile,
      });
    } catch (err) {
      if (attempt >= 5 || env.PORT || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE')
        throw err;
    }
  }
}
