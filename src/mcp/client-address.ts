// The client's address as the transport sees it: the socket's peer, or, behind trusted proxies,
// the X-Forwarded-For entry the nearest trusted proxy wrote (entries further left are the client's
// own words and may be forged).
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
