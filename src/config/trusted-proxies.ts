// HAMLET_TRUSTED_PROXIES: the peers whose X-Request-Id Hamlet takes as the request's id
// (addresses or CIDR blocks, comma-separated; `none` for no peer). By default loopback only: nginx
// on the same machine, as docs/operations.md sets it up. A request from any other peer (a client
// reaching the port directly, or a proxy not listed) gets a fresh id, so a client cannot choose the
// id its requests are logged under.
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

export const DEFAULT_TRUSTED_PROXIES = '127.0.0.0/8,::1';

/** One entry: an IPv4 or IPv6 address, optionally /prefix (0-32 or 0-128). */
function entryProblem(entry: string): string | undefined {
  const [address = '', prefix, extra] = entry.split('/');
  const kind = isIP(address);
  if (!kind || extra !== undefined) return `"${entry}" is not an address or address/prefix`;
  if (prefix === undefined) return undefined;
  const bits = Number(prefix);
  const max = kind === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && bits <= max
    ? undefined
    : `"${entry}": the prefix after / must be 0 to ${max}`;
}

/** The setting parsed: the entries, `none` an empty list. */
export const trustedProxiesSetting = z
  .string()
  .default(DEFAULT_TRUSTED_PROXIES)
  .transform((value, ctx) => {
    if (value.trim().toLowerCase() === 'none') return [];
    const entries = value
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');
    for (const problem of entries.map(entryProblem).filter(Boolean))
      ctx.addIssue({
        code: 'custom',
        message: `HAMLET_TRUSTED_PROXIES: ${problem} (a comma-separated list such as "127.0.0.1,10.0.0.0/8,::1", or "none")`,
      });
    if (!entries.length)
      ctx.addIssue({
        code: 'custom',
        message: 'HAMLET_TRUSTED_PROXIES is empty: list addresses or CIDR blocks, or say "none"',
      });
    return entries;
  });

/** Whether a peer address (a socket's remoteAddress) is one of `entries`. */
export function trustedPeer(entries: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    if (!address) return false;
    // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d.
    const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (v4) return list.check(v4, 'ipv4');
    const kind = isIP(address);
    return kind !== 0 && list.check(address, kind === 4 ? 'ipv4' : 'ipv6');
  };
}
