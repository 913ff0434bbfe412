// A bounded, seeded fuzzer of the MCP endpoints, on both engines: JSON-RPC envelopes, batches,
// headers and raw bodies; every tool's arguments generated from the JSON Schema tools/list
// publishes; resources, prompts and completion with hostile arguments; with every kind of
// credential. Whatever arrives, the server answers without a 5xx, without -32603 and without a tool
// result of code "internal", and stays healthy. HAMLET_FUZZ_CASES (default 3000 per engine) and
// HAMLET_FUZZ_SEED (default 20261001) run it longer or differently:
//   HAMLET_FUZZ_CASES=50000 HAMLET_FUZZ_SEED=7 node --import tsx --test test/security/fuzz.test.ts
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { freshDemoAgentKey } from '../../src/demo/demo-key.ts';
import { raw, rpc } from '../mcp/http-client.ts';
import { startTestHamlet } from '../app/helpers.ts';
import { eachEngine } from './engines.ts';
import { cases, type FuzzCase, type FuzzTarget } from './fuzz/cases.ts';

const CASES = Number(process.env.HAMLET_FUZZ_CASES ?? 3000);
const SEED = Number(process.env.HAMLET_FUZZ_SEED ?? 20261001);

/** The kind of answer, for the tally that shows how deep the cases reached. */
function kindOf(status: number, text: string): string {
  try {
    const body = JSON.parse(text);
    const m = (Array.isArray(body) ? body[0] : body) as {
      error?: { code?: number };
      result?: { isError?: boolean; structuredContent?: { code?: string } };
    };
    if (m?.error) return `rpc ${m.error.code}`;
    if (m?.result?.isError) return `tool ${m.result.structuredContent?.code ?? 'arguments'}`;
    if (m?.result) return 'result';
  } catch {
    // not JSON: counted by status
  }
  return `http ${status}`;
}

/** What is wrong with an answer, if anything: a 5xx, -32603, or a tool result of code "internal". */
function problemOf(status: number, text: string): string | undefined {
  if (status >= 500) return `HTTP ${status}`;
  if (!text || !/^[[{]/.test(text.trimStart())) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `unparseable JSON answer: ${text.slice(0, 80)}`;
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as {
      error?: { code?: number };
      result?: { structuredContent?: { code?: string } };
    };
    if (m?.error?.code === -32603) return 'JSON-RPC -32603';
    if (m?.result?.structuredContent?.code === 'internal') return 'tool result code "internal"';
  }
  return undefined;
}

async function send(c: FuzzCase): Promise<{ status: number; text: string }> {
  return raw(c.url, { method: c.method, headers: c.headers, body: c.body });
}

eachEngine(
  `fuzzed JSON-RPC and tool arguments (${CASES} cases, seed ${SEED}): no 5xx, no -32603, no "internal"`,
  async (engine, t) => {
    const h = await startTestHamlet(
      {
        ...engine.env,
        HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
        HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000',
      },
      { demo: true },
    );
    try {
      const system = systemActor('fuzz');
      const skunk = (await h.store.communities.getBySlug('skunkworks'))!;
      await h.services.accounts.createUser(system, {
        email: 'fuzz@example.com',
        name: 'Fuzz',
        password: 'correct horse battery',
      });
      const keys = {
        acme: (await freshDemoAgentKey(h.store, h.services.agents))!.key,
        skunkworks: (
          await h.services.agents.create(system, skunk, {
            name: 'fuzz-agent',
            scopes: ['topic:create', 'post:create'],
          })
        ).key,
        user: (await h.services.accounts.mintUserKey(system, { email: 'fuzz@example.com' })).key,
      };
      const targets: FuzzTarget[] = [];
      for (const [host, key] of [
        ['acme.localhost', keys.acme],
        ['skunkworks.localhost', keys.skunkworks],
        ['localhost', keys.user],
      ] as const) {
        const url = h.hostUrl(host, '/api/mcp');
        const listed = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
        targets.push({ url, key, tools: listed.status === 200 ? listed.json().result.tools : [] });
      }
      targets.push({ url: h.hostUrl('nosuch.localhost', '/api/mcp'), key: keys.acme, tools: [] });
      assert.ok(
        targets[0]!.tools.length >= 9 && targets[2]!.tools.length === 6,
        'both servers list their tools',
      );

      const problems: string[] = [];
      const tally = new Map<string, number>();
      let sent = 0;
      for (const c of cases(SEED, CASES, targets, Object.values(keys))) {
        const answer = await send(c);
        sent++;
        const kind = kindOf(answer.status, answer.text);
        tally.set(kind, (tally.get(kind) ?? 0) + 1);
        const problem = problemOf(answer.status, answer.text);
        if (problem)
          problems.push(
            `#${c.index} ${problem}: ${c.method} ${c.url} ${String(c.body ?? '').slice(0, 300)} → ${answer.text.slice(0, 200)}`,
          );
      }
      assert.equal(sent, CASES);
      t.diagnostic(
        `${engine.name}: ${[...tally]
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`,
      );
      assert.deepEqual(
        problems.slice(0, 10),
        [],
        `${problems.length} of ${CASES} cases failed (seed ${SEED}); replay one with its index`,
      );

      // Healthy after: liveness, readiness, and a real search still answer.
      assert.equal((await raw(h.hostUrl('localhost', '/heartbeat'))).status, 200);
      assert.equal((await raw(h.hostUrl('localhost', '/readyz'))).status, 200);
      const search = await rpc(
        targets[0]!.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'search_community', arguments: { query: 'webhook signature' } },
        },
        { authorization: `Bearer ${keys.acme}` },
      );
      assert.equal(search.json().result.isError, false);
      const unexpected = h.logs
        .join('')
        .split('\n')
        .filter((l) => l.includes('"level":50'));
      assert.deepEqual(
        unexpected.slice(0, 3).map((l) => l.slice(0, 300)),
        [],
        'nothing was logged as an unexpected error',
      );
    } finally {
      await h.stop();
    }
  },
);
