// The fault suite's bounded write load: one writer per instance creates topics through MCP, each
// with its own idempotency key, retrying a write that failed with the same key (as a careful agent
// does) until it is acknowledged or the load stops. Afterwards every acknowledged write must be in
// the database exactly once.
import assert from 'node:assert/strict';
import { callTool } from '../security/mcp.ts';
import type { Instance } from './instances.ts';

/** An acknowledged write; `started` and `at`: when its successful attempt began and was answered. */
export type Acked = {
  title: string;
  topicId?: string;
  approvalId?: string;
  started: number;
  at: number;
};

export type Load = {
  acked: Acked[];
  attempts: number;
  failures: number;
  /** Stops the writers; resolves when the last write in flight has settled. */
  stop(): Promise<void>;
};

/** Writes paced to about `perSecond` per writer, so the load stays bounded on a small machine. */
export function startLoad(instances: Instance[], key: string, label: string, perSecond = 8): Load {
  let stopped = false;
  const load: Load = { acked: [], attempts: 0, failures: 0, stop: async () => {} };
  const writer = async (instance: Instance) => {
    const url = instance.url('/c/acme/api/mcp');
    for (let i = 0; !stopped; i++) {
      const title = `Fault ${label} write ${instance.name}-${i} stays once`;
      const args = {
        category: 'support',
        title,
        body: `Body of ${title}.`,
        idempotency_key: `fault-${label}-${instance.name}-${i}`,
      };
      for (;;) {
        const started = Date.now();
        load.attempts++;
        const answer = await callTool(url, 'create_topic', args, key).catch(() => undefined);
        if (answer?.isError === false) {
          const s = answer.structured;
          load.acked.push({
            title,
            topicId: s.topic?.id,
            approvalId: s.approval_id,
            started,
            at: Date.now(),
          });
          await pace(started, perSecond);
          break;
        }
        load.failures++;
        await pace(started, perSecond);
        if (stopped) break;
      }
    }
  };
  const running = Promise.all(instances.map(async (i) => writer(i)));
  load.stop = async () => {
    stopped = true;
    await running;
  };
  return load;
}

async function pace(started: number, perSecond: number): Promise<void> {
  const wait = started + 1000 / perSecond - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}

/**
 * Every acknowledged write of `load` (`label`) is stored exactly once in the database `query`
 * reads; returns how many are stored.
 */
export async function exactlyOnce(
  load: Load,
  label: string,
  query: <R extends { title: string; n: string }>(text: string, values: unknown[]) => Promise<R[]>,
): Promise<number> {
  const rows = await query(
    `select title, count(*) as n from topics where title like $1 group by title`,
    [`Fault ${label} write %`],
  );
  const stored = new Map(rows.map((r) => [r.title, Number(r.n)]));
  const lost = load.acked.filter((w) => !stored.has(w.title)).map((w) => w.title);
  const doubled = rows.filter((r) => Number(r.n) > 1).map((r) => `${r.title} ×${r.n}`);
  assert.deepEqual(lost, [], `acknowledged but not stored: ${lost.length}`);
  assert.deepEqual(doubled, [], 'stored more than once');
  return load.acked.filter((w) => stored.get(w.title) === 1).length;
}
