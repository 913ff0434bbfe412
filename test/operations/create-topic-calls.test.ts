// What one create_topic costs the store: the services run over a Store that counts its calls, and
// one tools/call create_topic through the pipeline reads its category once, consults the approval
// policy (the authorization of the write) once, and writes one audit entry naming what it wrote.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { createLogger } from '../../src/log.ts';
import { Pipeline } from '../../src/operations/pipeline.ts';
import { createTopic } from '../../src/operations/community.ts';
import { createSearchIndex } from '../../src/search/engine.ts';
import { createServices, type Services } from '../../src/services.ts';
import { openDatabase } from '../../src/store/open.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { Community } from '../../src/store/types.ts';

const config = loadConfig({ HAMLET_PUBLIC_SCHEME: 'https', HAMLET_BASE_DOMAIN: 'hamlet.test' });
const system = systemActor('test');
const calls: string[] = [];
let close: () => Promise<void>;
let services: Services;
let pipeline: Pipeline;
let acme: Community;
let key: string;

/** `target` with every method call recorded in `calls` by its path ("community.categories.getBySlug"). */
function counted<T extends object>(target: T, path: string): T {
  return new Proxy(target, {
    get(t, prop, _receiver) {
      const value: unknown = Reflect.get(t, prop, t);
      if (typeof prop !== 'string') return value;
      const at = path ? `${path}.${prop}` : prop;
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          calls.push(at);
          if (prop === 'transaction') {
            const body = args[0] as (tx: Store) => Promise<unknown>;
            return (value as (fn: typeof body) => unknown).call(t, (tx: Store) =>
              body(counted(tx, '')),
            );
          }
          const out: unknown = (value as (...a: unknown[]) => unknown).apply(t, args);
          return out && typeof out === 'object' && !(out instanceof Promise)
            ? counted(out, at)
            : out;
        };
      }
      return value && typeof value === 'object' ? counted(value, at) : value;
    },
  });
}

before(async () => {
  const db = await openDatabase('sqlite::memory:');
  close = () => db.store.close();
  const store = counted(db.store, '');
  services = createServices({
    store,
    searchIndex: createSearchIndex(db.db, db.dialect),
    config,
    logger: createLogger('silent'),
  });
  pipeline = new Pipeline(
    services,
    {
      mcp: (s) => `https://${s}.hamlet.test/mcp`,
      web: (s) => `https://${s}.hamlet.test`,
      inPathForm: (v) => v,
      listsPathForm: false,
    },
    createLogger('silent'),
  );
  await services.communities.create(system, { slug: 'acme', name: 'Acme' });
  acme = (await db.store.communities.getBySlug('acme'))!;
  await services.categories.create(system, acme, { name: 'Support' });
  ({ key } = await services.agents.create(system, acme, {
    name: 'asker',
    scopes: ['topic:create'],
  }));
});
after(() => close());

const categoryReads = () => calls.filter((c) => /\.categories\.get/.test(c)).length;
const policyChecks = () => calls.filter((c) => c.endsWith('.policies.get')).length;
const auditRows = () => calls.filter((c) => c === 'identity.audit.record').length;

async function ask(title: string) {
  calls.length = 0;
  const out = await pipeline.invoke(
    createTopic,
    { community: acme, credential: key, ip: '127.0.0.1' },
    { category: 'support', title, body: 'The sync stops after an hour; why?' },
  );
  assert.ok(out.ok, JSON.stringify(out));
  return out.value;
}

test('one create_topic reads its category once, is authorized once and audited once', async () => {
  const written = await ask('Why does the sync stop?');
  assert.equal(written.status, 'applied');
  assert.equal(written.reason, 'policy_auto', 'the actor is told why it applied at once');
  assert.equal(categoryReads(), 1, `category reads: ${calls.join(', ')}`);
  assert.equal(policyChecks(), 1, `policy checks: ${calls.join(', ')}`);
  assert.equal(auditRows(), 1, `audit rows: ${calls.join(', ')}`);
  // The fixture's category was written (and audited) by the system; the call is the agent's.
  const entries = (await services.audit.list(system, acme, { limit: 5 })).entries.filter(
    (e) => e.actorKind !== 'system',
  );
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.action, 'tool:create_topic');
  assert.equal(entries[0]!.targets.write, 'topic.create');
  assert.ok(entries[0]!.targets.topic_id, 'the entry names the topic it wrote');
});

test('a queued create_topic is the same: one category read, one policy check, one audit entry, and the reason', async () => {
  await services.approvals.setPolicy(system, acme, { kind: 'topic.create', mode: 'approval' });
  const queued = await ask('Why does the sync stop again?');
  assert.equal(queued.status, 'pending_approval');
  assert.equal(queued.reason, 'approval_policy:topic.create');
  assert.equal(categoryReads(), 1, `category reads: ${calls.join(', ')}`);
  assert.equal(policyChecks(), 1, `policy checks: ${calls.join(', ')}`);
  assert.equal(auditRows(), 1, `audit rows: ${calls.join(', ')}`);
});
