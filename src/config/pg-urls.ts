// PostgreSQL URLs listing several hosts, which node-postgres does not understand by itself:
//  - `postgres://u:p@a:5432,b:5432/db?…` (DATABASE_URL, libpq's form) stands for one URL per host,
//    alike but for the host (src/store/pg-hosts.ts finds the one that takes writes);
//  - HAMLET_DATABASE_REPLICA_URL: URLs separated by commas, each of which may list hosts too.
import { z } from 'zod';

/** One URL per host of `url` (a single-host URL is its own list). Throws on a malformed URL. */
export function hostUrls(url: string): string[] {
  const m = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/.exec(url.trim());
  if (!m) throw new Error('a PostgreSQL URL must start with postgres:// or postgresql://');
  const [, scheme, userinfo, hostList, rest] = m as unknown as [
    string,
    string,
    string | undefined,
    string,
    string,
  ];
  const hosts = hostList.split(',').map((h) => h.trim());
  if (hosts.some((h) => h === ''))
    throw new Error('a PostgreSQL URL lists its hosts as host:port separated by commas');
  return hosts.map((h) => `${scheme}${userinfo !== undefined ? `${userinfo}@` : ''}${h}${rest}`);
}

/** Every single-host URL of a comma-separated list of URLs (each may list hosts itself). */
export function urlList(value: string): string[] {
  return value
    .split(/,(?=\s*postgres(?:ql)?:\/\/)/)
    .map((u) => u.trim())
    .filter((u) => u !== '')
    .flatMap(hostUrls);
}

/** `host:port` of a single-host URL, for logs (never the user or password). */
export function hostOf(url: string): string {
  return /^postgres(?:ql)?:\/\/(?:[^@/?#]*@)?([^/?#]*)/.exec(url)?.[1] ?? '(unknown host)';
}

/** HAMLET_DATABASE_REPLICA_URL's value: one URL per standby host. */
export const standbyUrls = z.string().transform((v, ctx) => {
  try {
    const urls = urlList(v);
    if (urls.length) return urls;
  } catch {
    // said below
  }
  ctx.addIssue({
    code: 'custom',
    message:
      'HAMLET_DATABASE_REPLICA_URL must be one or more postgres:// URLs of hot standbys, separated by commas (postgres://u@standby1:5432/db,postgres://u@standby2:5432/db)',
  });
  return z.NEVER;
});

/** Standbys are a PostgreSQL primary's: the schema's check of that, and what it says. */
export const standbysNeedPostgres = {
  check: (e: { DATABASE_URL: string; HAMLET_DATABASE_REPLICA_URL?: string[] }) =>
    !e.HAMLET_DATABASE_REPLICA_URL || !e.DATABASE_URL.startsWith('sqlite:'),
  options: {
    message: 'HAMLET_DATABASE_REPLICA_URL needs DATABASE_URL to be a postgres:// URL (the primary)',
    path: ['HAMLET_DATABASE_REPLICA_URL'],
  },
};
