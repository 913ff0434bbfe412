// IP addresses, parsed once here. Where outbound requests may not go: loopback, private,
// link-local (cloud metadata at 169.254.169.254 included), shared/CGNAT, unspecified, multicast,
// reserved and documentation ranges, and their IPv6 equivalents; an IPv6 form that carries an IPv4
// address (IPv4-mapped, IPv4-translated, NAT64, 6to4) is judged as that IPv4 address, and the
// deprecated IPv4-compatible form (::a.b.c.d) is refused outright. Checked on the resolved addresses
// of every request (a public name can resolve to a private address), and on literal addresses up
// front. And how a client's address is written and grouped for per-address limits: one canonical
// text per address (IPv4-mapped as IPv4), an IPv6 client counted by its /64.
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

const v4Text = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

function v4Blocked(n: number): boolean {
  return V4_BLOCKED.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (n & mask) >>> 0 === (v4ToInt(base) & mask) >>> 0;
  });
}

/** The 8 16-bit groups of a valid IPv6 address (with an embedded IPv4 tail expanded, zone dropped). */
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

const zeroIn = (g: number[], from: number, to: number) => g.slice(from, to).every((x) => x === 0);
const v4At = (g: number[], i: number) => ((g[i]! << 16) | g[i + 1]!) >>> 0;

/** The IPv4 address an IPv6 one stands for (the forms that reach that IPv4 host), if any. */
function embeddedV4(g: number[]): number | undefined {
  if (zeroIn(g, 0, 5) && g[5] === 0xffff) return v4At(g, 6); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeroIn(g, 0, 4) && g[4] === 0xffff && g[5] === 0) return v4At(g, 6); // ::ffff:0:a.b.c.d, translated
  if (g[0] === 0x64 && g[1] === 0xff9b && zeroIn(g, 2, 6)) return v4At(g, 6); // 64:ff9b::/96, NAT64
  if (g[0] === 0x2002) return v4At(g, 1); // 2002:aabb:ccdd::/48, 6to4
  return undefined;
}

function v6Blocked(g: number[]): boolean {
  const v4 = embeddedV4(g);
  if (v4 !== undefined) return v4Blocked(v4);
  const first = g[0]!;
  // 0000::/8 is reserved: ::, ::1, IPv4-compatible ::a.b.c.d, NAT64 local use 64:ff9b:1::/48, …
  if (first < 0x0100) return true;
  if (first === 0x0100 && zeroIn(g, 1, 4)) return true; // 100::/64 discard-only
  if (first === 0x2001 && g[1] === 0) return true; // 2001::/32 Teredo (tunnels to an IPv4 peer)
  if (first === 0x2001 && (g[1]! & 0xfff0) === 0x0020) return true; // 2001:20::/28 ORCHIDv2
  if (first === 0x2001 && (g[1]! & 0xfff0) === 0x0010) return true; // 2001:10::/28 ORCHID
  if (first === 0x2001 && g[1] === 0x0db8) return true; // 2001:db8::/32 documentation
  if (first === 0x3fff && g[1]! < 0x1000) return true; // 3fff::/20 documentation
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/** True when a request must not go to this IP address (or it is not an IP address at all). */
export function isBlockedAddress(ip: string): boolean {
  const kind = isIP(ip);
  if (kind === 4) return v4Blocked(v4ToInt(ip));
  if (kind === 6) return v6Blocked(v6Groups(ip));
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

/** IPv6 groups in RFC 5952 text: lower case, no leading zeros, the longest run of 2+ zeros as `::`. */
function v6Text(g: number[]): string {
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = (from: number, to: number) =>
    g
      .slice(from, to)
      .map((x) => x.toString(16))
      .join(':');
  return best.at < 0 ? hex(0, 8) : `${hex(0, best.at)}::${hex(best.at + best.length, 8)}`;
}

/** An address as a client header may carry it: without `[…]`, a port, a zone or spaces. */
function unwrap(raw: string): string {
  const s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) return bracketed[1]!;
  const v4Port = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(s);
  return v4Port ? v4Port[1]! : s;
}

/**
 * One text per client address: IPv4 dotted, an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, how a
 * dual-stack socket reports an IPv4 peer) as its IPv4 address, any other IPv6 address in RFC 5952
 * form (so `2001:DB8:0::1` and `2001:db8::1` are one client). Anything that is not an IP address
 * (`unknown`) comes back trimmed.
 */
export function canonicalAddress(raw: string): string {
  const s = unwrap(raw);
  const kind = isIP(s);
  if (kind === 4) return s;
  if (kind !== 6) return s;
  const g = v6Groups(s);
  return zeroIn(g, 0, 5) && g[5] === 0xffff ? v4Text(v4At(g, 6)) : v6Text(g);
}

/**
 * The bucket per-address limits count a client in: an IPv4 address is its own, an IPv6 address
 * counts as its /64 (`2001:db8:1:2::/64`: one subscriber's network, in which a host may pick any
 * address it likes). Anything that is not an IP address is its own bucket.
 */
export function addressBucket(raw: string): string {
  const address = canonicalAddress(raw);
  if (isIP(address) !== 6) return address;
  const g = v6Groups(address);
  return `${v6Text([...g.slice(0, 4), 0, 0, 0, 0])}/64`;
}
