// A raw HTTP client for transport tests: full control of headers (Host included) and the exact
// status, headers and body text the server sent.
import { request } from 'node:http';

export type RawResponse = {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as it came (binary bodies: `text` is its UTF-8 reading). */
  bytes: Buffer;
  json(): any;
};

export async function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: '127.0.0.1',
        port: u.port,
        path: u.pathname + u.search,
        method: options.method ?? 'GET',
        headers: { host: u.host, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({
            status: res.statusCode ?? 0,
            headers,
            text,
            bytes,
            json: () => JSON.parse(text),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** POST a JSON-RPC body (object, array or raw string) the way the seed's curl examples do. */
export async function rpc(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return raw(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const INITIALIZE = (protocolVersion = '2025-06-18', id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'my-agent', version: '0.1.0' } },
});

/** Reads SSE events from a fetch Response until `until` returns true or the stream ends. */
export async function readSse(
  response: Response,
  until: (events: SseEvent[]) => boolean = () => false,
  timeoutMs = 5000,
): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const next = await Promise.race([
        reader.read(),
        new Promise<{ done: true; value: undefined }>((r) =>
          setTimeout(() => r({ done: true, value: undefined }), Math.max(1, deadline - Date.now())),
        ),
      ]);
      if (next.done) break;
      buffer += next.value;
      let sep: number;
      while ((sep = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, sep);
        buffer = buffer.slice(sep + 2);
        if (block.startsWith(':')) continue;
        const event: SseEvent = { data: '' };
        for (const line of block.split('\n')) {
          const [field, ...rest] = line.split(':');
          const value = rest.join(':').replace(/^ /, '');
          if (field === 'id') event.id = value;
          else if (field === 'data') event.data += value;
          else if (field === 'retry') event.retry = Number(value);
          else if (field === 'event') event.event = value;
        }
        events.push(event);
        if (until(events)) return events;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return events;
}

export type SseEvent = { id?: string; data: string; retry?: number; event?: string };
