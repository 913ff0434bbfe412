// The client's address as the transport sees it: the socket's peer, or, behind trusted proxies,
// the X-Forwarded-For entry the nearest trusted proxy wrote (entries further left are the client's
// own words and may be forged); and the bucket per-address limits count that client in.
import type { IncomingMessage } from 'node:http';

/**
 * The client's address. Without a proxy in front (`trustProxy` false or 0) it is the socket's peer.
 * Behind `hops` proxies (`true` is one), each appends the address it saw to X-Forwarded-For, so the
 * client is the entry `hops` places from the right of [X-Forwarded-For…, peer]; anything further
 * left was written by the client and may be forged. A shorter list gives its leftmost entry.
 */
export function clientIp(req: IncomingMessage, trustProxy: boolean | number): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : trustProxy;
  if (hops <= 0) return peer;
  const raw = req.headers['x-forwarded-for'];
  const listed = (Array.isArray(raw) ? raw.join(',') : (raw ?? ''))
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const chain = [...listed, peer];
  return chain[Math.max(0, chain.length - 1 - hops)]!;
}

/**
 * A client as the transport sees it: its address as the application records it, and the bucket
 * every per-address limit (admission, sessions, event streams) counts it in.
 */
export type ClientAddress = { address: string; key: string };

/** The client of `req`, written and grouped by `shape` (default: as given, a bucket per address). */
export function clientAddressOf(
  req: IncomingMessage,
  trustProxy: boolean | number,
  shape?: (raw: string) => ClientAddress,
): ClientAddress {
  const raw = clientIp(req, trustProxy);
  return shape ? shape(raw) : { address: raw, key: raw };
}
