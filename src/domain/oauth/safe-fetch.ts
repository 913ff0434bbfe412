// GET of a document on someone else's server (an OAuth client's metadata document), guarded against
// server-side request forgery: only public addresses are contacted (no loopback, private, link-local,
// carrier-grade NAT, multicast or reserved ranges, checked on the addresses DNS actually returned,
// so a name cannot rebind between check and connect), no redirects are followed, and the answer is
// bounded in size and time. An operator can allow private targets (development, tests).
import dns, { type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv6');

/** "::ffff:127.0.0.1" and "::ffff:7f00:1" are IPv4 addresses in IPv6 clothing: judged as IPv4. */
function unmapped(address: string): string {
  const m = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(address.replace(/^\[|\]$/g, ''));
  if (!m) return address.replace(/^\[|\]$/g, '');
  const tail = m[1]!;
  if (isIP(tail) === 4) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
  if (!hex) return address;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for an address on the public internet. */
export function isPublicAddress(address: string): boolean {
  const plain = unmapped(address);
  const family = isIP(plain);
  if (family === 0) return false;
  return !BLOCKED.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

export class FetchRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchRefused';
  }
}

export type SafeFetchOptions = {
  /** Contact loopback and private addresses too (development and tests only). */
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
  /** Certificate authorities (PEM) trusted beside the system's for https. */
  ca?: string;
};

export type FetchedDocument = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** A DNS lookup that fails when any address of the name is not public (unless allowed). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((a) => !allowPrivate && !isPublicAddress(a.address));
      if (refused || addresses.length === 0) {
        return callback(new FetchRefused(`${hostname} resolves to an address that is not public (${refused?.address ?? 'none'}).`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** GETs `url` (http or https) under the guard; the status is returned as is (3xx is not followed). */
export function safeGet(url: URL, o: SafeFetchOptions): Promise<FetchedDocument> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new FetchRefused(`Only http(s) URLs can be fetched, not ${url.protocol}`));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !o.allowPrivate && !isPublicAddress(host)) {
    return Promise.reject(new FetchRefused(`${host} is not a public address.`));
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
      req.destroy();
    };
    const req = request(url, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': 'Hamlet (OAuth client metadata)' },
      lookup: guardedLookup(o.allowPrivate),
      agent: false,
      ...(o.ca && url.protocol === 'https:' ? { ca: [...rootCertificates, o.ca] } : {}),
    });
    const timer = setTimeout(() => fail(new FetchRefused(`No complete answer within ${o.timeoutMs} ms.`)), o.timeoutMs);
    req.on('error', fail);
    req.on('response', (res) => {
      const tooLarge = () => fail(new FetchRefused(`The document is larger than ${o.maxBytes} bytes.`));
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > o.maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > o.maxBytes) tooLarge();
        else chunks.push(chunk);
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
      res.on('error', fail);
    });
    req.end();
  });
}
