// Where webhooks may not go: loopback, private, link-local (cloud metadata at 169.254.169.254
// included), shared/CGNAT, unspecified, multicast, reserved and documentation ranges, and their IPv6
// equivalents (IPv4-mapped addresses judged as IPv4). Checked on the resolved addresses of every
// delivery (a public name can resolve to a private address), and on literal addresses up front.
import { isIP } from 'node:net';

const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
}

function v4Blocked(ip: string): boolean {
  const n = v4ToInt(ip);
  return V4_BLOCKED.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (n & mask) >>> 0 === (v4ToInt(base) & mask) >>> 0;
  });
}

/** The 8 16-bit groups of an IPv6 address (with an embedded IPv4 tail expanded). */
function v6Groups(ip: string): number[] {
  let addr = ip.toLowerCase().split('%')[0]!;
  const v4 = addr.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const n = v4ToInt(v4[1]!);
    addr =
      addr.slice(0, -v4[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = addr.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const fill = addr.includes('::') ? Array(8 - h.length - t.length).fill('0') : [];
  return [...h, ...fill, ...t].map((g) => parseInt(g || '0', 16));
}

function v6Blocked(ip: string): boolean {
  const g = v6Groups(ip);
  if (g.length !== 8) return true;
  const isZeroUntil = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (isZeroUntil(8)) return true; // ::
  if (isZeroUntil(7) && g[7] === 1) return true; // ::1
  if (isZeroUntil(5) && g[5] === 0xffff)
    return v4Blocked(`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`); // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b)
    return v4Blocked(`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`); // NAT64
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (first === 0x2002)
    return v4Blocked(`${g[1]! >> 8}.${g[1]! & 255}.${g[2]! >> 8}.${g[2]! & 255}`); // 6to4
  return false;
}

/** True when a delivery must not go to this IP address (or it is not an IP address at all). */
export function isBlockedAddress(ip: string): boolean {
  const kind = isIP(ip);
  if (kind === 4) return v4Blocked(ip);
  if (kind === 6) return v6Blocked(ip);
  return true;
}

/** A URL's host as a name or an address (an IPv6 literal without its brackets). */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Whether a host is not public by its very name or literal address, before any lookup (what a
 * name resolves to is judged on each connection, ./guarded-request.ts).
 */
export function isPrivateByName(host: string): boolean {
  return isLocalName(host) || (isIP(host) !== 0 && isBlockedAddress(host));
}

/** Host names that are never public whatever they resolve to. */
export function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h.endsWith('.local') ||
    h.endsWith('.internal') ||
    h === 'metadata.google.internal'
  );
}
