// The one way Hamlet calls someone else's server (webhook deliveries, OAuth client metadata
// documents), guarded against server-side request forgery:
// - only public addresses are contacted (addresses.ts: no loopback, private, link-local, CGNAT,
//   multicast, reserved; no local names), judged on the addresses DNS actually returned, and the
//   connection goes to exactly those (the lookup is the connection's own, so a name cannot rebind
//   between check and connect);
// - redirects are never followed (the 3xx comes back as the answer);
// - one deadline covers the whole attempt, DNS included, and the body read is bounded.
// An operator can allow private targets (development, tests). Knows nothing of Hamlet.
import dns, { type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { bareHost, isBlockedAddress, isLocalName, isPrivateByName } from './addresses.ts';

/** The request was not made, or was abandoned, by the guard's rules (not a network failure). */
export class RequestRefused extends Error {
  /** address: the target is not public; stopped: the caller gave up; the others: a bound broken. */
  constructor(
    readonly reason: 'address' | 'deadline' | 'size' | 'stopped',
    message: string,
  ) {
    super(message);
    this.name = 'RequestRefused';
  }
}

export type GuardedRequest = {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Contact loopback and private addresses too (development and tests only). */
  allowPrivate: boolean;
  timeoutMs: number;
  /** The most of the answer's body that is read. */
  maxBytes: number;
  /** refuse: a larger body is a RequestRefused; truncate: the first maxBytes are kept. */
  overflow: 'refuse' | 'truncate';
  /** Certificate authorities (PEM) trusted beside the system's for https. */
  ca?: string;
  /** Gives the request up (a RequestRefused 'stopped') when it aborts. */
  signal?: AbortSignal;
};

export type GuardedResponse = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** A DNS lookup that fails when any address of the name is not public (unless allowed). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(
      hostname,
      { all: true, family: options.family, verbatim: true },
      (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        const blocked = allowPrivate
          ? undefined
          : addresses.find((a) => isBlockedAddress(a.address));
        if (blocked)
          return callback(
            new RequestRefused(
              'address',
              `${hostname} resolves to ${blocked.address}, which is not a public address (loopback, private, link-local or reserved).`,
            ),
            '',
            0,
          );
        if (addresses.length === 0)
          return callback(new Error(`${hostname} does not resolve.`), '', 0);
        if (options.all)
          return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
    );
  };
}

/** Why `url` may not be contacted before any lookup (scheme, literal address, local name), or undefined. */
function upfrontRefusal(url: URL, allowPrivate: boolean): string | undefined {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `Only http(s) URLs are contacted, not ${url.protocol}`;
  const host = bareHost(url);
  if (allowPrivate || !isPrivateByName(host)) return undefined;
  return isLocalName(host)
    ? `${host} is a local name, not a public address.`
    : `${host} is not a public address (loopback, private, link-local or reserved).`;
}

/** Makes the request under the guard; RequestRefused for the guard's refusals, Error for network failures. */
export async function guardedRequest(url: URL, r: GuardedRequest): Promise<GuardedResponse> {
  const refusal = upfrontRefusal(url, r.allowPrivate);
  if (refusal) return Promise.reject(new RequestRefused('address', refusal));
  if (r.signal?.aborted) return Promise.reject(stopped());
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, response?: GuardedResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      r.signal?.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(response!);
    };
    const headers = {
      ...r.headers,
      ...(r.body !== undefined ? { 'content-length': String(Buffer.byteLength(r.body)) } : {}),
    };
    const req = send(url, {
      method: r.method,
      headers,
      lookup: guardedLookup(r.allowPrivate),
      // A fresh connection per request: a pooled one could have been checked for another name.
      agent: false,
      ...(r.ca && url.protocol === 'https:' ? { ca: [...rootCertificates, r.ca] } : {}),
    });
    const timer = setTimeout(
      () => finish(new RequestRefused('deadline', `No answer within ${r.timeoutMs} ms.`)),
      r.timeoutMs,
    );
    const onAbort = () => finish(stopped());
    r.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => finish(err));
    req.on('response', (res) => readBounded(res, r, finish));
    req.end(r.body);
  });
}

function stopped(): RequestRefused {
  return new RequestRefused('stopped', 'The request was given up: the sender is stopping.');
}

function readBounded(
  res: IncomingMessage,
  r: GuardedRequest,
  finish: (err: Error | null, response?: GuardedResponse) => void,
): void {
  const tooLarge = () =>
    finish(new RequestRefused('size', `The answer is larger than ${r.maxBytes} bytes.`));
  const declared = Number(res.headers['content-length']);
  if (r.overflow === 'refuse' && Number.isFinite(declared) && declared > r.maxBytes)
    return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  const done = () =>
    finish(null, {
      status: res.statusCode ?? 0,
      headers: res.headers,
      body: Buffer.concat(chunks).subarray(0, r.maxBytes),
    });
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= r.maxBytes) return void chunks.push(chunk);
    if (r.overflow === 'refuse') return tooLarge();
    chunks.push(chunk);
    res.destroy();
    done();
  });
  res.on('end', done);
  res.on('error', (err) => finish(err));
}
