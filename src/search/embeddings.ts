// A real embedder when the operator has one: an OpenAI-compatible `/v1/embeddings` endpoint (what
// Ollama, llama.cpp's server, vLLM and hosted providers serve), configured by HAMLET_EMBEDDINGS_*.
//
//   OpenAIEmbedder     texts → vectors over HTTP (batched; the response is validated)
//   PostVectors        one vector per post and model in search_embeddings (migration 0020)
//   EmbeddingBackfill  embeds every post without a vector, in the background, in batches, with
//                      progress; keeps polling for new and edited posts (an edit drops the vector)
//   semanticSearch()   the three wired together from the Config, for the wiring root
//
// Without configuration nothing here runs and search stays lexical (semantic and hybrid refused);
// an endpoint that fails makes those searches run lexically (./fallback.ts).
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { Database } from '../store/schema.ts';
import type { Embedder } from './embedder.ts';
import type { SearchOptions } from './service.ts';
import { plainText } from './snippet.ts';

export type EmbeddingsConfig = NonNullable<Config['embeddings']>;

const responseSchema = z.object({
  data: z.array(
    z.object({
      embedding: z.array(z.number()).min(1),
      index: z.number().int().nonnegative().optional(),
    }),
  ),
});

/** Text embedded per post: its topic title and plain-text body, truncated. */
const MAX_TEXT = 4_000;
const TIMEOUT_MS = 30_000;

export class OpenAIEmbedder implements Embedder {
  readonly name: string;
  private dims = 0;

  constructor(private readonly config: Pick<EmbeddingsConfig, 'url' | 'model' | 'key'>) {
    this.name = `openai:${config.model}`;
  }

  /** Known after the first answer (the endpoint decides). */
  get dimensions(): number {
    return this.dims;
  }

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const url = `${this.config.url.replace(/\/+$/, '')}/embeddings`;
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.config.key ? { authorization: `Bearer ${this.config.key}` } : {}),
      },
      body: JSON.stringify({ model: this.config.model, input: texts }),
      signal: options.signal
        ? AbortSignal.any([options.signal, AbortSignal.timeout(TIMEOUT_MS)])
        : AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok)
      throw new Error(
        `embeddings endpoint ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`,
      );
    const parsed = responseSchema.safeParse(await res.json());
    if (!parsed.success || parsed.data.data.length !== texts.length) {
      throw new Error(
        `embeddings endpoint ${url} did not answer one embedding per input (OpenAI format: {"data":[{"embedding":[…]}]})`,
      );
    }
    const rows = parsed.data.data.map((d, i) => ({
      i: d.index ?? i,
      v: Float32Array.from(d.embedding),
    }));
    rows.sort((a, b) => a.i - b.i);
    this.dims = rows[0]!.v.length;
    return rows.map((r) => r.v);
  }
}

type Missing = { id: string; community_id: string; title: string; body: string };

/** Stored post vectors of one model. */
export class PostVectors {
  constructor(
    private readonly db: Kysely<Database>,
    readonly model: string,
  ) {}

  async get(postIds: string[]): Promise<Map<string, Float32Array>> {
    if (postIds.length === 0) return new Map();
    const r = await sql<{ post_id: string; vector: Uint8Array }>`
      select post_id, vector from search_embeddings where model = ${this.model} and post_id in (${sql.join(postIds)})`.execute(
      this.db,
    );
    return new Map(r.rows.map((x) => [x.post_id, fromBytes(x.vector)]));
  }

  async put(rows: { postId: string; communityId: string; vector: Float32Array }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('search_embeddings')
      .values(
        rows.map((r) => ({
          post_id: r.postId,
          community_id: r.communityId,
          model: this.model,
          dims: r.vector.length,
          vector: toBytes(r.vector),
        })),
      )
      .onConflict((oc) =>
        oc.column('post_id').doUpdateSet((eb) => ({
          model: eb.ref('excluded.model'),
          dims: eb.ref('excluded.dims'),
          vector: eb.ref('excluded.vector'),
        })),
      )
      .execute();
  }

  /** Posts with no vector of this model yet (their topic title and body). */
  async missing(limit: number): Promise<Missing[]> {
    const r = await sql<Missing>`
      select p.id, p.community_id, t.title, p.body from posts p join topics t on t.id = p.topic_id
      where not exists (select 1 from search_embeddings e where e.post_id = p.id and e.model = ${this.model})
      order by p.id limit ${limit}`.execute(this.db);
    return r.rows;
  }

  /** Posts with a vector of this model, and all posts. */
  async counts(): Promise<{ done: number; total: number }> {
    const r = await sql<{ done: number | string; total: number | string }>`
      select (select count(*) from search_embeddings where model = ${this.model}) as done, (select count(*) from posts) as total`.execute(
      this.db,
    );
    return { done: Number(r.rows[0]!.done), total: Number(r.rows[0]!.total) };
  }
}

export type BackfillProgress = {
  done: number;
  total: number;
  running: boolean;
  lastError?: string;
};

export class EmbeddingBackfill {
  private running = false;
  private loop: Promise<void> | undefined;
  private state: BackfillProgress = { done: 0, total: 0, running: false };
  private wake: (() => void) | undefined;

  constructor(
    private readonly vectors: PostVectors,
    private readonly embedder: Embedder,
    private readonly options: {
      batchSize?: number;
      idleMs?: number;
      onProgress?: (p: BackfillProgress) => void;
    } = {},
  ) {}

  progress(): BackfillProgress {
    return { ...this.state };
  }

  /** Embeds batches until no post is missing a vector; returns how many it embedded. */
  async runOnce(): Promise<number> {
    let embedded = 0;
    for (;;) {
      const batch = await this.vectors.missing(this.options.batchSize ?? 32);
      if (batch.length === 0) break;
      const vectors = await this.embedder.embed(
        batch.map((p) => `${p.title}\n${plainText(p.body)}`.slice(0, MAX_TEXT)),
      );
      await this.vectors.put(
        batch.map((p, i) => ({ postId: p.id, communityId: p.community_id, vector: vectors[i]! })),
      );
      embedded += batch.length;
      this.state = { ...(await this.vectors.counts()), running: this.running };
      this.options.onProgress?.(this.progress());
    }
    return embedded;
  }

  /** Runs in the background: fills what is missing, then looks again every idleMs (default 10 s). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        try {
          this.state = { ...(await this.vectors.counts()), running: true };
          await this.runOnce();
          delete this.state.lastError;
        } catch (err) {
          // An unreachable endpoint is retried on the next round; search keeps its lexical rank.
          this.state = {
            ...this.state,
            lastError: err instanceof Error ? err.message : String(err),
          };
          this.options.onProgress?.(this.progress());
        }
        if (!this.running) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.idleMs ?? 10_000);
          timer.unref?.();
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      this.state.running = false;
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }
}

/** The embedder, its stored vectors and a started backfill, from the Config; undefined when not configured. */
export function semanticSearch(
  config: Pick<Config, 'embeddings'>,
  db: Kysely<Database>,
  onProgress?: (p: BackfillProgress) => void,
): { options: SearchOptions; backfill: EmbeddingBackfill; stop(): Promise<void> } | undefined {
  const c = config.embeddings;
  if (!c) return undefined;
  const embedder = new OpenAIEmbedder(c);
  const vectors = new PostVectors(db, c.model);
  const backfill = new EmbeddingBackfill(vectors, embedder, { batchSize: c.batchSize, onProgress });
  backfill.start();
  return { options: { embedder, vectors }, backfill, stop: () => backfill.stop() };
}

function toBytes(v: Float32Array): Uint8Array {
  const out = new Uint8Array(v.length * 4);
  const view = new DataView(out.buffer);
  v.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return out;
}

function fromBytes(b: Uint8Array): Float32Array {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Float32Array(b.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
