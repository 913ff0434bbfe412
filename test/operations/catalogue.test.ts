// The catalogue through the pipeline, as the REST API and the web will run it: administrators manage
// agents, keys and members; moderators decide the queue exactly once; people mint their own user
// keys; articles are revised with their history kept. And the catalogue itself is well formed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PersonActor } from '../../src/domain/actor.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { CATALOGUE, operationNamed } from '../../src/operations/catalogue.ts';
import { jsonSchemasOf } from '../../src/operations/operation.ts';
import { Pipeline, type Caller } from '../../src/operations/pipeline.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

let h: TestHamlet;
let acme: Community;
let pipeline: Pipeline;
let admin: PersonActor;
let moderators: PersonActor[];
const system = systemActor('test');

async function person(
  email: string,
  role?: 'owner' | 'admin' | 'moderator' | 'member',
): Promise<PersonActor> {
  await h.services.accounts.createUser(system, {
    email,
    password: 'a long enough password',
    name: email.split('@')[0],
  });
  if (role) await h.services.accounts.addMember(system, acme, { email, role });
  return (await h.services.accounts.resolveWebSession(
    (await h.services.accounts.signIn({ email, password: 'a long enough password' })).token,
  ))!;
}

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '10000' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
  pipeline = new Pipeline(
    h.services,
    { mcp: (s) => `mcp:${s}`, web: (s) => `web:${s}`, inPathForm: (v) => v, listsPathForm: false },
    h.logger,
  );
  admin = await person('owner@example.org', 'owner');
  moderators = [
    await person('mod1@example.org', 'moderator'),
    await person('mod2@example.org', 'moderator'),
  ];
});
after(() => h.stop());

const at = (community: Community | null, who: Partial<Caller> = {}): Caller => ({
  community,
  ip: '127.0.0.1',
  ...who,
});
async function ok(
  server: 'community' | 'network',
  name: string,
  caller: Caller,
  args: unknown = {},
): Promise<any> {
  const outcome = await pipeline.invoke(operationNamed(server, name)!, caller, args);
  assert.ok(outcome.ok, `${name}: ${JSON.stringify(outcome)}`);
  return outcome.value;
}
async function refused(
  server: 'community' | 'network',
  name: string,
  caller: Caller,
  args: unknown = {},
) {
  const outcome = await pipeline.invoke(operationNamed(server, name)!, caller, args);
  assert.equal(outcome.ok, false, `${name} should be refused`);
  return outcome as Extract<typeof outcome, { ok: false }>;
}

describe('the catalogue', () => {
  test('names are unique per server; inputs are strict objects; every schema converts to JSON Schema', () => {
    for (const server of ['community', 'network'] as const) {
      const names = CATALOGUE.filter((o) => o.server === server).map((o) => o.name);
      assert.equal(new Set(names).size, names.length, `${server}: ${names.join(', ')}`);
    }
    for (const op of CATALOGUE) {
      const { input, output } = jsonSchemasOf(op);
      assert.equal(input.type, 'object', op.name);
      assert.equal(input.additionalProperties, false, `${op.name} refuses unknown arguments`);
      assert.ok(output, op.name);
    }
  });

  test('the community server has its nine tools and the network its six', () => {
    assert.deepEqual(
      // Without toolsets: a toolset's tools are listed only where a community turns it on.
      CATALOGUE.filter((o) => o.mcp && !o.toolset && o.server === 'community').map((o) => o.name),
      [
        'search_community',
        'suggest_answer',
        'get_topic',
        'list_topics',
        'list_categories',
        'create_topic',
        'reply_to_topic',
        'mark_solution',
        'get_approval',
      ],
    );
    assert.deepEqual(
      CATALOGUE.filter((o) => o.toolset === 'moderation').map((o) => o.name),
      ['clear_dispute', 'review_queue', 'decide_review', 'close_topic', 'mark_duplicate'],
      'the moderation toolset (a community turns it on)',
    );
    assert.deepEqual(
      CATALOGUE.filter((o) => o.mcp && o.server === 'network').map((o) => o.name),
      [
        'search_network',
        'find_community',
        'get_community',
        'get_topic',
        'suggest_answer',
        'ask_community',
      ],
    );
  });

  test('flag_post is a feedback tool, the review queue and its decisions moderation tools', () => {
    const inToolset = (t: string) =>
      CATALOGUE.filter((o) => o.mcp && o.toolset === t).map((o) => o.name);
    assert.ok(inToolset('feedback').includes('flag_post'));
    assert.ok(['review_queue', 'decide_review'].every((n) => inToolset('moderation').includes(n)));
  });
});

describe('administration', () => {
  test('an administrator creates an agent whose key works, mints and revokes keys', async () => {
    const created = await ok('community', 'create_agent', at(acme, { person: admin }), {
      name: 'ops-bot',
      scopes: ['post:create'],
    });
    assert.match(created.key, /^hmlt_live_/);
    assert.deepEqual(created.agent.scopes, ['post:create']);
    const asAgent = await ok('community', 'list_categories', at(acme, { credential: created.key }));
    assert.ok(asAgent.categories.length > 0, 'the minted key reads the community');
    const minted = await ok('community', 'mint_agent_key', at(acme, { person: admin }), {
      agent: 'ops-bot',
    });
    const keys = await ok('community', 'list_agent_keys', at(acme, { person: admin }), {
      agent: 'ops-bot',
    });
    assert.equal(keys.keys.length, 2);
    assert.ok(!JSON.stringify(keys).includes(created.key), 'a key is never shown again');
    await ok('community', 'revoke_agent_key', at(acme, { person: admin }), {
      key: created.record.id,
    });
    const gone = await refused(
      'community',
      'list_categories',
      at(acme, { credential: created.key }),
    );
    assert.equal(gone.code, 'unauthorized');
    assert.match(gone.message, /revoked/);
    await ok('community', 'list_categories', at(acme, { credential: minted.key }));
    const agents = await ok('community', 'list_agents', at(acme, { person: admin }));
    assert.ok(agents.agents.some((a: { name: string }) => a.name === 'ops-bot'));
  });

  test('agents, members and moderators are refused administration, saying who may', async () => {
    const { key } = await h.services.agents.create(system, acme, {
      name: 'not-admin',
      scopes: ['topic:create'],
    });
    const byAgent = await refused('community', 'create_agent', at(acme, { credential: key }), {
      name: 'x',
    });
    assert.equal(byAgent.code, 'forbidden');
    assert.match(byAgent.message, /Only an administrator of "acme"/);
    const byModerator = await refused(
      'community',
      'list_members',
      at(acme, { person: moderators[0] }),
    );
    assert.equal(byModerator.code, 'forbidden');
    const anonymous = await refused('community', 'list_agents', at(acme));
    assert.equal(anonymous.code, 'unauthorized');
  });

  test('members: add, change a role, remove; the last owner stays', async () => {
    await person('member@example.org');
    await ok('community', 'set_member', at(acme, { person: admin }), {
      email: 'member@example.org',
      role: 'member',
    });
    const listed = await ok('community', 'list_members', at(acme, { person: admin }));
    assert.ok(
      listed.members.some(
        (m: { email: string; role: string }) =>
          m.email === 'member@example.org' && m.role === 'member',
      ),
    );
    await ok('community', 'remove_member', at(acme, { person: admin }), {
      email: 'member@example.org',
    });
    // Someone who posts without a role is listed too, with role null, a page at a time.
    const poster = await person('poster@example.org');
    await ok('community', 'create_topic', at(acme, { person: poster }), {
      category: 'support',
      title: 'A question from someone without a role',
      body: 'Listed among the members all the same.',
    });
    const firstPage = await ok('community', 'list_members', at(acme, { person: admin }), {
      limit: 1,
    });
    assert.equal(firstPage.members.length, 1);
    assert.ok(firstPage.next_cursor, 'more than one page');
    const all: { email: string | null; role: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const page = await ok('community', 'list_members', at(acme, { person: admin }), {
        limit: 50,
        ...(cursor ? { cursor } : {}),
      });
      all.push(...page.members);
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(
      all.filter((m) => m.email === 'poster@example.org').map((m) => m.role),
      [null],
    );
    const last = await refused('community', 'remove_member', at(acme, { person: admin }), {
      email: 'owner@example.org',
    });
    assert.equal(last.code, 'conflict');
  });
});

describe('the approval queue', () => {
  test('two moderators decide the same write at once: one wins, the other is told who decided', async () => {
    await ok('community', 'set_approval_policy', at(acme, { person: admin }), {
      kind: 'topic.create',
      mode: 'approval',
    });
    const { key } = await h.services.agents.create(system, acme, {
      name: 'queued-bot',
      scopes: ['topic:create'],
    });
    const queued = await ok('community', 'create_topic', at(acme, { credential: key }), {
      category: 'support',
      title: 'A queued question here',
      body: 'Waiting for a moderator to decide.',
    });
    assert.equal(queued.status, 'pending_approval');
    const pending = await ok('community', 'list_approvals', at(acme, { person: moderators[0] }));
    assert.ok(
      pending.approvals.some((a: { approval_id: string }) => a.approval_id === queued.approval_id),
    );
    const [a, b] = await Promise.all([
      pipeline.invoke(
        operationNamed('community', 'approve')!,
        at(acme, { person: moderators[0] }),
        { approval_id: queued.approval_id },
      ),
      pipeline.invoke(operationNamed('community', 'reject')!, at(acme, { person: moderators[1] }), {
        approval_id: queued.approval_id,
        reason: 'Duplicate of an older question.',
      }),
    ]);
    const winners = [a, b].filter((o) => o.ok);
    const losers = [a, b].filter((o) => !o.ok) as Array<{ code: string; message: string }>;
    assert.equal(winners.length, 1);
    assert.equal(losers.length, 1);
    assert.equal(losers[0]!.code, 'conflict');
    assert.match(losers[0]!.message, /already decided \(status: (applied|rejected) by mod[12]\)/);
    const followed = await ok('community', 'get_approval', at(acme, { credential: key }), {
      approval_id: queued.approval_id,
    });
    assert.ok(['applied', 'rejected'].includes(followed.status));
    await ok('community', 'set_approval_policy', at(acme, { person: admin }), {
      kind: 'topic.create',
      mode: 'auto',
    });
  });
});

describe('a person and their keys; articles', () => {
  test('a signed-in person mints a user key that writes on the network, lists it by prefix, revokes it', async () => {
    const me = await person('writer@example.org');
    const minted = await ok('network', 'mint_my_key', at(null, { person: me }));
    assert.match(minted.key, /^hmlt_u_/);
    const asked = await ok('network', 'ask_community', at(null, { credential: minted.key }), {
      community: 'acme',
      category: 'support',
      title: 'Asked with my own key',
      body: 'Posted through the network server.',
    });
    assert.equal(asked.status, 'applied');
    assert.equal(asked.topic.author.name, 'writer');
    const listed = await ok('network', 'list_my_keys', at(null, { person: me }));
    assert.deepEqual(
      listed.keys.map((k: { prefix: string }) => k.prefix),
      [minted.record.prefix],
    );
    await ok('network', 'revoke_my_key', at(null, { person: me }), { key: minted.record.prefix });
    assert.equal(
      (
        await refused('network', 'ask_community', at(null, { credential: minted.key }), {
          community: 'acme',
          category: 'support',
          title: 'Asked once more here',
          body: 'Should be refused now.',
        })
      ).code,
      'unauthorized',
    );
  });

  test('an article is revised with every revision kept; an accepted answer can be withdrawn', async () => {
    const { key } = await h.services.agents.create(system, acme, {
      name: 'writer-bot',
      scopes: ['article:write', 'topic:create', 'post:create', 'solution:mark'],
      trusted: true,
    });
    const caller = at(acme, { credential: key });
    const created = await ok('community', 'create_topic', caller, {
      category: 'docs',
      title: 'Rotating keys safely',
      body: 'Mint a new key, then revoke the old one.',
    });
    const slug = created.topic.slug;
    await ok('community', 'revise_article', caller, {
      article: slug,
      title: 'Rotating agent keys safely',
      body: 'Mint a new key, switch the agent, then revoke the old one.',
    });
    const revisions = await ok('community', 'list_article_revisions', caller, { article: slug });
    assert.deepEqual(
      revisions.revisions.map((r: { revision: number; title: string }) => [r.revision, r.title]),
      [
        [1, 'Rotating keys safely'],
        [2, 'Rotating agent keys safely'],
      ],
    );
    const topic = await ok('community', 'create_topic', caller, {
      category: 'support',
      title: 'A question to be solved',
      body: 'Which answer is right here?',
    });
    const reply = await ok('community', 'reply_to_topic', caller, {
      topic: topic.topic.id,
      body: 'This one.',
    });
    await ok('community', 'mark_solution', caller, { topic: topic.topic.id, post: reply.post.id });
    const withdrawn = await ok('community', 'unmark_solution', caller, { topic: topic.topic.id });
    assert.equal(withdrawn.topic.solution_post_id, null);
  });
});
