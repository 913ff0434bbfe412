// PostgreSQL URLs listing several hosts, which node-postgres does not understand by itself:
//  - `postgres://u:p@a:5432,b:5432/db?…` (DATABASE_URL, libpq's form) stands for one URL per host,
//    alike but for the host (src/store/pg-hosts.ts finds the one that takes writes);
//  - HAMLET_DATABASE_REPLICA_URL: URLs separated by commas, each of which may list hosts too.

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
