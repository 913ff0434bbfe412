// An agent's whole journey on the demo community, with the official MCP SDK client over HTTP:
// search → suggest_answer → get_topic → create_topic queued for approval → a moderator approves →
// get_approval shows it applied → reply → mark_solution → search finds it with is_solution: true.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

let h: TestHamlet;
let acme: Community;
let agentKey: string;
let client: Client;

before(async () => {
  h = await startTestHamlet({}, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
  const identity = h.services;
  const system = systemActor('test');
  ({ key: agentKey } = await identity.agents.create(system, acme, {
    name: 'helper-bot',
    scopes: ['topic:create', 'post:create', 'solution:mark'],
  }));
  await identity.approvals.setPolicy(system, acme, { kind: 'topic.create', mode: 'approval' });
  client = new Client({ name: 'journey', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(h.hostUrl('acme.localhost', '/api/mcp')), {
      requestInit: { headers: { Authorization: `Bearer ${agentKey}` } },
    }),
  );
});
after(async () => {
  await client?.close();
  await h?.stop();
});

type Result = { structuredContent?: any; content?: any; isError?: boolean };
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;

test('the community server introduces itself and lists its 9 tools, then the toolsets the demo turns on', async () => {
  assert.equal(client.getServerVersion()?.title, 'Hamlet: acme');
  assert.match(client.getInstructions() ?? '', /search_community or suggest_answer FIRST/);
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools
      .slice(9)
      .map((t) => t.name)
      .sort(),
    [
      'clear_dispute',
      'close_topic',
      'confirm_answer',
      'decide_review',
      'flag_post',
      'mark_duplicate',
      'review_queue',
      'vote',
    ],
  );
  assert.deepEqual(
    tools
      .slice(0, 9)
      .map((t) => t.name)
      .sort(),
    [
      'create_topic',
      'get_approval',
      'get_topic',
      'list_categories',
      'list_topics',
      'mark_solution',
      'reply_to_topic',
      'search_community',
      'suggest_answer',
    ],
  );
  for (const t of tools) {
    assert.ok(t.outputSchema, `${t.name} declares an outputSchema`);
    assert.ok(
      t.annotations && typeof t.annotations.readOnlyHint === 'boolean',
      `${t.name} has annotations`,
    );
    for (const [prop, schema] of Object.entries(
      (t.inputSchema.properties ?? {}) as Record<string, { description?: string }>,
    )) {
      assert.ok(schema.description, `${t.name}.${prop} is described`);
    }
  }
});

test('the journey from search to an accepted answer that search then finds', async () => {
  // 1. search first
  const found = await call('search_community', {
    query: 'run on PostgreSQL instead of SQLite',
    filters: { limit: 5 },
  });
  assert.equal(found.isError, false);
  const results = found.structuredContent.results;
  assert.ok(results.length > 0);
  assert.equal(results[0].title, 'How do I run Hamlet on PostgreSQL instead of SQLite?');
  assert.equal(found.content[0].text, JSON.stringify(found.structuredContent, null, 2));

  // 2. suggest_answer finds the accepted answer
  const suggested = await call('suggest_answer', {
    question: 'how can several Hamlet instances share a postgres database?',
  });
  assert.equal(suggested.isError, false);
  assert.ok(
    suggested.structuredContent.answers.some(
      (a: { accepted: boolean; is_solution: boolean }) => a.accepted && a.is_solution,
    ),
  );
  assert.ok(
    suggested.structuredContent.confidence > 0 && suggested.structuredContent.confidence <= 1,
  );

  // 3. read the thread
  const topic = await call('get_topic', { topic: results[0].topic_id });
  assert.equal(topic.structuredContent.posts[0].is_question, true);
  assert.ok(topic.structuredContent.posts.some((p: { is_solution: boolean }) => p.is_solution));

  // 4. ask something new: the community queues new topics for approval
  const asked = await call('create_topic', {
    category: 'support',
    title: 'How do I rotate an agent key without downtime?',
    body: 'Our agent uses one hmlt_live_ key. How do we switch to a new key without a window where calls fail?',
    tags: ['keys'],
    idempotency_key: 'journey-rotate-key-0001',
  });
  assert.equal(asked.isError, false);
  assert.equal(asked.structuredContent.status, 'pending_approval');
  const approvalId = asked.structuredContent.approval_id;
  assert.ok(approvalId);
  const retried = await call('create_topic', {
    category: 'support',
    title: 'How do I rotate an agent key without downtime?',
    body: 'Our agent uses one hmlt_live_ key. How do we switch to a new key without a window where calls fail?',
    tags: ['keys'],
    idempotency_key: 'journey-rotate-key-0001',
  });
  assert.equal(
    retried.structuredContent.approval_id,
    approvalId,
    'a retry returns the same approval',
  );
  assert.equal(
    (await call('get_approval', { approval_id: approvalId })).structuredContent.status,
    'pending',
  );

  // 5. a moderator approves (as a signed-in person)
  const identity = h.services;
  const system = systemActor('test');
  await identity.accounts.createUser(system, {
    email: 'mod@example.com',
    password: 'correct horse battery staple',
    name: 'Mo Derator',
  });
  await identity.accounts.addMember(system, acme, { email: 'mod@example.com', role: 'moderator' });
  const session = await identity.accounts.signIn({
    email: 'mod@example.com',
    password: 'correct horse battery staple',
  });
  const moderator = (await identity.accounts.resolveWebSession(session.token))!;
  await identity.approvals.approve(moderator, acme, approvalId);

  // 6. the agent follows its queued write
  const followed = await call('get_approval', { approval_id: approvalId });
  assert.equal(followed.isError, false);
  assert.equal(followed.structuredContent.status, 'applied');
  assert.equal(followed.structuredContent.decided_by.name, 'Mo Derator');
  const topicId: string = followed.structuredContent.result.topic.id;
  assert.equal(
    followed.structuredContent.result.topic.title,
    'How do I rotate an agent key without downtime?',
  );
  const created = await call('get_topic', { topic: topicId });
  assert.equal(
    created.structuredContent.topic.title,
    'How do I rotate an agent key without downtime?',
  );
  assert.equal(created.structuredContent.topic.author.kind, 'agent');
  assert.equal(
    created.structuredContent.topic.author.label,
    'posted by agent helper-bot on behalf of community acme',
  );

  // 7. reply (auto) and accept it
  const reply = await call('reply_to_topic', {
    topic: topicId,
    body: 'Mint a second key with `hamlet key mint`, switch the agent to it, then revoke the old one.',
  });
  assert.equal(reply.structuredContent.status, 'applied');
  const postId = reply.structuredContent.post.id;
  assert.equal(
    reply.structuredContent.post.author.label,
    'posted by agent helper-bot on behalf of community acme',
  );
  const marked = await call('mark_solution', { topic: topicId, post: postId });
  assert.equal(marked.structuredContent.status, 'applied');
  assert.equal(marked.structuredContent.topic.solution_post_id, postId);

  // 8. the next agent with the same problem finds the accepted answer
  const again = await call('search_community', {
    query: 'rotate agent key',
    filters: { solved_only: true },
  });
  const hit = again.structuredContent.results.find(
    (r: { topic_id: string }) => r.topic_id === topicId,
  );
  assert.ok(hit, 'the solved topic is found');
  assert.ok(
    again.structuredContent.results.some(
      (r: { is_solution: boolean; source_id: string }) => r.is_solution && r.source_id === postId,
    ),
  );
});

test('every writing tools/call is in the audit log once, with what it wrote, without the key; reads are not', async () => {
  const identity = h.services;
  const { entries } = await identity.audit.list(systemActor('test'), acme, { limit: 200 });
  const actions = entries.map((e) => e.action);
  assert.ok(!actions.includes('tool:search_community'), 'a read writes no audit row');
  assert.ok(actions.includes('tool:create_topic'));
  assert.ok(actions.includes('tool:mark_solution'));
  // One entry per call, naming the write it made (no second entry of the write's own).
  assert.ok(
    entries.some((e) => e.action === 'tool:create_topic' && e.targets.write === 'topic.create'),
  );
  // The agent's calls: the demo's own seed (written by the system) has entries of its own.
  const agents = entries.filter((e) => e.actorKind === 'agent').map((e) => e.action);
  assert.ok(!agents.includes('topic.create'));
  assert.ok(!JSON.stringify(entries).includes(agentKey));
});
