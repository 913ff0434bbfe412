// An agent's feedback over MCP with the 2.x client: the feedback tools are listed only where the
// community turns the toolset on (a community without it keeps the nine); the agent searches, uses
// an accepted answer, confirms it worked, and the next search (suggest_answer: search_community
// keeps the seed's result shape) shows the confirmation; another
// agent's "did not work" report with a note reaches the topic's watchers as a notification; each
// report is in the audit log once.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { systemActor, type Actor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

let h: TestHamlet;
let acme: Community;
const closers: Array<() => Promise<void>> = [];
before(async () => {
  h = await startTestHamlet({}, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(async () => {
  for (const close of closers) await close().catch(() => {});
  await h?.stop();
});

async function agent(community: Community, name: string) {
  const { key } = await h.services.agents.create(systemActor('test'), community, {
    name,
    scopes: ['feedback:write'],
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(h.hostUrl(`${community.slug}.localhost`, '/api/mcp')),
      {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      },
    ),
  );
  closers.push(() => client.close());
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as {
    structuredContent: any;
    isError?: boolean;
    content: unknown;
  };
  assert.ok(!r.isError, `${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
}

test('the feedback tools are listed where the toolset is on; elsewhere the nine stay', async () => {
  const plain = await h.store.communities.create({
    slug: 'plainfb',
    name: 'Plain',
    visibility: 'public',
  });
  const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
  const without = await names(await agent(plain, 'plain-bot'));
  assert.equal(without.length, 9);
  assert.ok(!without.includes('confirm_answer') && !without.includes('vote'));
  const withFeedback = await names(await agent(acme, 'listing-bot'));
  assert.ok(withFeedback.includes('confirm_answer') && withFeedback.includes('vote'));
});

test('search, use the answer, confirm it worked; the next search shows it; a failure reaches the watchers', async () => {
  const client = await agent(acme, 'journey-bot');
  const query = 'PostgreSQL instead of SQLite';
  const found = await call(client, 'search_community', { query });
  const hit = found.results[0];
  assert.ok(hit, 'the search finds the thread');
  const topic = await call(client, 'get_topic', { topic: hit.topic_id });
  const answerId = topic.topic.solution_post_id;
  assert.ok(answerId, 'the thread has an accepted answer');
  const answer = topic.posts.find((p: { id: string }) => p.id === answerId);
  assert.equal(answer.score, 0);
  assert.equal(answer.confirmations.summary, '');

  const confirmed = await call(client, 'confirm_answer', { post: answerId, worked: true });
  assert.equal(confirmed.confirmations.worked_by_agents, 1);
  assert.match(confirmed.confirmations.summary, /^confirmed by 1 agent, last \d{4}-\d{2}-\d{2}$/);

  const suggested = await call(client, 'suggest_answer', {
    question: `How do I run Hamlet on ${query}?`,
  });
  const best = suggested.answers.find((a: { source_id: string }) => a.source_id === answerId);
  assert.equal(best.confirmations.worked_by_agents, 1, 'the next search shows the confirmation');
  assert.match(best.confirmations.summary, /^confirmed by 1 agent/);

  const watcher = await h.store.people.create({ displayName: 'Watcher' });
  await h.store
    .community(acme.id)
    .notifications.setLevel(watcher.id, 'topic', hit.topic_id, 'watch');
  const other = await agent(acme, 'failing-bot');
  const failed = await call(other, 'confirm_answer', {
    post: answerId,
    worked: false,
    note: 'DATABASE_URL with sslmode=require is refused',
  });
  assert.equal(failed.confirmations.failed, 1);
  const me: Actor = { kind: 'person', personId: watcher.id, displayName: 'Watcher' };
  const seen = await h.services.notifications.list(me, acme, {});
  const note = seen.notifications.find((n) => n.kind === 'answer_failed');
  assert.ok(note, 'the watcher has the report');
  assert.match(
    note.text,
    /failing-bot \(agent\) says an answer in .* did not work for them: “DATABASE_URL with sslmode=require/,
  );
  assert.equal(note.postId, answerId);

  // Each report is audited once, as the call, naming the write, the topic and the post.
  const { items } = await h.store.identity.audit.list(acme.id, { limit: 100 });
  const reports = items.filter((e) => /outcome|confirm_answer/.test(e.action));
  assert.deepEqual(
    reports.map((e) => [e.action, e.actorName, e.outcome, e.targets]),
    ['failing-bot', 'journey-bot'].map((who) => [
      'tool:confirm_answer',
      who,
      'ok',
      { write: 'answer.outcome', topic_id: hit.topic_id, post_id: answerId },
    ]),
  );
});
