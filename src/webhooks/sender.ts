// One outbound webhook request, made safe: the host name is resolved first and every address it
// resolves to must be public (unless private targets are allowed); the connection then goes to that
// checked address (no second lookup a rebinding DNS could answer differently), redirects are not
// followed (a 3xx is a failed attempt), and the whole attempt, DNS included, has one deadline.
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isBlockedAddress, isLocalName } from '../domain/webhooks/addresses.ts';

export type SendResult = { status: number | null; error: string | null; excerpt: string | null; durationMs: number };
export type SendOptions = { timeoutMs: number; allowPrivate: boolean };

const EXCERPT_CHARS = 1_000;
const MAX_READ_BYTES = 64 * 1024;

class Refused extends Error {}

async function resolveTarget(hostname: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const literal = isIP(hostname);
  if (!allowPrivate && isLocalName(hostname)) throw new Refused(`${hostname} is a local name; deliveries go to public addresses only.`);
  const addresses = literal ? [{ address: hostname, family: literal }] : await lookup(hostname, { all: true, verbatim: true });
  if (!addresses.length) throw new Error(`${hostname} does not resolve.`);
  if (!allowPrivate) {
    const blocked = addresses.find((a) => isBlockedAddress(a.address));
    if (blocked) throw new Refused(`${hostname} resolves to ${blocked.address}, a loopback, private, link-local or reserved address; deliveries go to public addresses only.`);
  }
  return addresses[0]!;
}

/** POSTs `body` to `url`; never throws (failures come back as an error text). */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${options.timeoutMs} ms.`)), options.timeoutMs);
  });
  let req: ReturnType<typeof httpRequest> | undefined;
  try {
    const target = new URL(url);
    const hostname = target.hostname.replace(/^\[|\]$/g, '');
    const { address, family } = await Promise.race([resolveTarget(hostname, options.allowPrivate), deadline]);
    const response = await Promise.race([
      new Promise<IncomingMessage>((resolve, reject) => {
        const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
        req = send({
          host: address,
          family,
          port: target.port || (target.protocol === 'https:' ? 443 : 80),
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          servername: isIP(hostname) ? undefined : hostname,
          headers: { ...headers, host: target.host, 'content-length': String(Buffer.byteLength(body)) },
          agent: false,
        });
        req.once('response', resolve);
        req.once('error', reject);
        req.end(body);
      }),
      deadline,
    ]);
    const excerpt = await Promise.race([readExcerpt(response), deadline]);
    const status = response.statusCode ?? 0;
    const error = status >= 300 && status < 400 ? `Redirect to ${response.headers.location ?? '(no location)'} not followed: point the endpoint at the final URL.` : null;
    return done({ status, error, excerpt });
  } catch (err) {
    req?.destroy();
    const message = err instanceof Error ? err.message : String(err);
    return done({ status: null, error: err instanceof Refused ? `Refused: ${message}` : message, excerpt: null });
  } finally {
    clearTimeout(timer);
  }
}

async function readExcerpt(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const b = chunk as Buffer;
    if (size < MAX_READ_BYTES) chunks.push(b);
    size += b.length;
    if (size >= MAX_READ_BYTES) {
      response.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
}
