// GET of a document on someone else's server (an OAuth client's metadata document), guarded against
// server-side request forgery: only public addresses are contacted (the ranges webhooks may not reach
// either: loopback, private, link-local, carrier-grade NAT, multicast, reserved; local names), checked
// on the addresses DNS actually returned, so a name cannot rebind between check and connect; no
// redirects are followed, and the answer is bounded in size and time. An operator can allow private
// targets (development, tests).
import dns, { type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { isBlockedAddress, isLocalName } from '../webhooks/addresses.ts';

/** True for an address on the public internet (the rule webhook deliveries follow too). */
export function isPublicAddress(address: string): boolean {
  return !isBlockedAddress(address.replace(/^\[|\]$/g, ''));
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
  if (!o.allowPrivate && ((isIP(host) && !isPublicAddress(host)) || isLocalName(host))) {
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
