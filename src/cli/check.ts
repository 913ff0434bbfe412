// `hamlet check`: what an operator runs after an install, an upgrade or a change of the environment
// file. Each item is checked with the instance's own configuration and said on one line: ok, or a
// sentence saying what to fix (a warning does not fail the check). The exit code is 0 when nothing
// failed and 1 otherwise, for scripts and deploy pipelines. Nothing is changed: no migration runs.
import { statfsSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import pg from 'pg';
import type { Command } from './command.ts';
import { parseCommandArgs } from './with-hamlet.ts';
import { cliIo, setExitCode } from './io.ts';
import { loadConfig, type Config } from '../config/config.ts';
import { openDatabase } from '../store/open.ts';
import { schemaProblem } from '../store/schema-version.ts';
import type { Store } from '../store/repositories.ts';

const USAGE = 'hamlet check   (reads the same environment as hamlet serve)';

export type CheckResult = { item: string; status: 'ok' | 'warn' | 'fail'; says: string };

/** Less free space than this on the database's or the uploads' disk is a failure. */
export const MIN_FREE_BYTES = 1024 ** 3;
const TIMEOUT_MS = 5_000;

export const checkCommand: Command = {
  name: 'check',
  usage: USAGE,
  summary:
    'check the configuration, database (reachable, writable, migrations, standbys), mail, disk space and the public origin; each ok or what to fix; exit code 1 when one failed',
  async run(args) {
    parseCommandArgs(args, {}, USAGE);
    const results = await runChecks(cliIo().env);
    for (const r of results) console.log(`${r.status.padEnd(4)}  ${r.item}: ${r.says}`);
    const failed = results.filter((r) => r.status === 'fail').length;
    console.log(failed ? `${failed} check(s) failed.` : 'Every check passed.');
    if (failed) setExitCode(1);
  },
};

/** Every check, in order; a configuration that does not load stops the rest. */
export async function runChecks(env: Record<string, string | undefined>): Promise<CheckResult[]> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    return [{ item: 'configuration', status: 'fail', says: messageOf(err) }];
  }
  const results: CheckResult[] = [{ item: 'configuration', status: 'ok', says: 'loads' }];
  results.push(...(await checkDatabase(config)));
  results.push(...(await checkStandbys(config)));
  results.push(await checkMail(config));
  results.push(...checkDisk(config));
  results.push(await checkPublicOrigin(config));
  results.push(checkMetrics(config));
  return results;
}

async function checkDatabase(config: Config): Promise<CheckResult[]> {
  const file = config.databaseUrl.startsWith('sqlite:')
    ? config.databaseUrl.slice('sqlite:'.length)
    : undefined;
  // Opening a SQLite file that is not there would make it: the check changes nothing.
  if (file && file !== ':memory:' && !existsSync(file))
    return [
      {
        item: 'database',
        status: 'fail',
        says: `the file ${resolve(file)} does not exist: check DATABASE_URL (hamlet serve or hamlet migrate creates it)`,
      },
    ];
  let store: Store;
  try {
    ({ store } = await openDatabase(config.databaseUrl, {
      migrate: false,
      requireCurrentSchema: false,
      poolSize: 1,
      connectTimeoutMs: TIMEOUT_MS,
    }));
  } catch (err) {
    return [
      {
        item: 'database',
        status: 'fail',
        says: `cannot be reached: ${messageOf(err)}. Check DATABASE_URL (host, port, user, password, database name) and that the server runs.`,
      },
    ];
  }
  const results: CheckResult[] = [];
  try {
    results.push({ item: 'database', status: 'ok', says: `reachable (${store.dialect})` });
    const state = await store.schemaState();
    const problem = schemaProblem(state);
    results.push(
      problem
        ? { item: 'migrations', status: 'fail', says: problem }
        : { item: 'migrations', status: 'ok', says: `current (${state.applied.length} applied)` },
    );
    if (!problem)
      results.push(
        await store.probeWrite().then(
          () => ({ item: 'database writes', status: 'ok' as const, says: 'taken' }),
          (err: unknown) => ({
            item: 'database writes',
            status: 'fail' as const,
            says: `refused: ${messageOf(err)}. Free disk space, or make the database writable (a read-only file, a standby named as the primary, maintenance).`,
          }),
        ),
      );
  } finally {
    await store.close();
  }
  return results;
}

/** Each standby of HAMLET_DATABASE_REPLICA_URL: reachable, in recovery, and how far behind. */
async function checkStandbys(config: Config): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const url of config.postgres.replicaUrls) {
    const item = `standby ${new URL(url).host}`;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ recovery: boolean; lag_ms: number | null }>(
        `select pg_is_in_recovery() as recovery,
                case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
                     else extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000 end as lag_ms`,
      );
      const { recovery, lag_ms } = rows[0]!;
      const lag = Math.round(Number(lag_ms ?? 0));
      if (!recovery)
        results.push({
          item,
          status: 'warn',
          says: 'is not in recovery (promoted?): it takes no reads; list it in DATABASE_URL instead, or rebuild it as a standby',
        });
      else if (lag > config.postgres.replicaMaxLagMs)
        results.push({
          item,
          status: 'warn',
          says: `is ${lag} ms behind (more than HAMLET_DATABASE_REPLICA_MAX_LAG_MS=${config.postgres.replicaMaxLagMs}): its reads go to the primary until it catches up`,
        });
      else results.push({ item, status: 'ok', says: `streaming, ${lag} ms behind` });
    } catch (err) {
      results.push({
        item,
        status: 'fail',
        says: `cannot be reached: ${messageOf(err)}. Check HAMLET_DATABASE_REPLICA_URL.`,
      });
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return results;
}

/** The SMTP server answers with its 220 greeting (no mail is sent). */
async function checkMail(config: Config): Promise<CheckResult> {
  const url = config.mail.smtpUrl;
  if (!url)
    return {
      item: 'mail',
      status: 'warn',
      says: 'off (HAMLET_SMTP_URL unset): addresses are not verified and passwords are not reset by e-mail',
    };
  if (url === 'log:') return { item: 'mail', status: 'warn', says: 'logged, never sent (log:)' };
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  const port = Number(u.port || (secure ? 465 : 25));
  try {
    const greeting = await smtpGreeting(u.hostname, port, secure);
    if (!greeting.startsWith('220'))
      return {
        item: 'mail',
        status: 'fail',
        says: `${u.hostname}:${port} greeted with "${greeting.slice(0, 80)}", not 220: check HAMLET_SMTP_URL`,
      };
    return { item: 'mail', status: 'ok', says: `${u.hostname}:${port} answers` };
  } catch (err) {
    return {
      item: 'mail',
      status: 'fail',
      says: `cannot reach ${u.hostname}:${port}: ${messageOf(err)}. Check HAMLET_SMTP_URL and that the mail server runs.`,
    };
  }
}

async function smtpGreeting(host: string, port: number, secure: boolean): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const socket: Socket = secure
      ? tlsConnect({ host, port, servername: host })
      : tcpConnect({ host, port });
    let text = '';
    const done = (err?: Error) => {
      socket.destroy();
      if (err) reject(err);
      else resolvePromise(text.split('\r\n')[0] ?? '');
    };
    socket.setTimeout(TIMEOUT_MS, () => done(new Error(`no greeting within ${TIMEOUT_MS} ms`)));
    socket.on('data', (chunk: Buffer) => {
      text += String(chunk);
      if (text.includes('\n')) {
        socket.write('QUIT\r\n');
        done();
      }
    });
    socket.on('error', (err) => done(err));
  });
}

/** Free space where the SQLite file and the uploads are written. */
function checkDisk(config: Config): CheckResult[] {
  const places: Array<[string, string]> = [['uploads', config.uploads.dir]];
  if (config.databaseUrl.startsWith('sqlite:'))
    places.unshift(['database file', config.databaseUrl.slice('sqlite:'.length)]);
  return places.map(([what, path]) => {
    let at = resolve(path);
    while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
    const item = `disk (${what})`;
    try {
      const s = statfsSync(at);
      const free = s.bavail * s.bsize;
      const says = `${gib(free)} free of ${gib(s.blocks * s.bsize)} at ${at}`;
      return free < MIN_FREE_BYTES
        ? { item, status: 'fail', says: `${says}: free space (writes fail on a full disk)` }
        : { item, status: 'ok', says };
    } catch (err) {
      return { item, status: 'warn', says: `cannot be measured at ${at}: ${messageOf(err)}` };
    }
  });
}

/** The public origin's /heartbeat, as clients reach it (DNS, TLS, the proxy, this or another instance). */
async function checkPublicOrigin(config: Config): Promise<CheckResult> {
  const origin = config.publicOrigin;
  if (!origin)
    return {
      item: 'public origin',
      status: 'ok',
      says: 'unset: a local run (set HAMLET_PUBLIC_ORIGIN in production)',
    };
  try {
    const res = await fetch(`${origin}/heartbeat`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    await res.arrayBuffer();
    return res.ok
      ? { item: 'public origin', status: 'ok', says: `${origin}/heartbeat answers ${res.status}` }
      : {
          item: 'public origin',
          status: 'fail',
          says: `${origin}/heartbeat answers ${res.status}: check the proxy's upstream and that an instance runs`,
        };
  } catch (err) {
    return {
      item: 'public origin',
      status: 'fail',
      says: `${origin} cannot be reached from here: ${messageOf(err)}. Check DNS, the certificate and the proxy.`,
    };
  }
}

function checkMetrics(config: Config): CheckResult {
  const { token, port } = config.metrics;
  if (!token && port === undefined)
    return {
      item: 'metrics',
      status: 'warn',
      says: 'off: set HAMLET_METRICS_PORT (or HAMLET_METRICS_TOKEN) for Prometheus',
    };
  const where = [port !== undefined ? `port ${port}` : '', token ? '/metrics with the token' : '']
    .filter(Boolean)
    .join(' and ');
  return { item: 'metrics', status: 'ok', says: `served on ${where}` };
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

function messageOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown }).code;
  return message || (typeof code === 'string' ? code : 'unknown error');
}
