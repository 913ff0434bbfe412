// The community server's resources, templates, prompts and completion with the SDK client, and a
// subscription that hears about a topic's new post and its accepted answer.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { waitFor } from '../helpers/wait.ts';

let h: TestHamlet;
let acme: Community;
let client: Client;
let key: string;
let sessionId: string;

before(async () => {
  h = await startTestHamlet({}, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
  ({ key } = await h.services.agents.create(systemActor('test'), acme, {
    name: 'watcher',
    scopes: ['post:create', 'solution:mark'],
  }));
  client = new Client({ name: 'watcher', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(
    new URL(h.hostUrl('acme.localhost', '/api/mcp')),
    { requestInit: { headers: { Authorization: `Bearer ${key}` } } },
  );
  await client.connect(transport);
  sessionId = transport.sessionId!;
});
after(async () => {
  await client?.close();
  await h?.stop();
});

test('resources and templates are listed without a key and read with one', async () => {
  const anonymous = new Client({ name: 'anon', version: '1.0.0' });
  await anonymous.connect(
    new StreamableHTTPClientTransport(new URL(h.hostUrl('acme.localhost', '/api/mcp'))),
  );
  const { resources } = await anonymous.listResources();
  // Beside its own resources, the community serves its skills' files.
  assert.deepEqual(resources.map((r) => r.uri).sort(), [
    'hamlet://acme/categories',
    'hamlet://acme/guidelines',
    'skill://asking-and-answering/SKILL.md',
    'skill://asking-and-answering/references/tools.md',
    'skill://community-guidelines/SKILL.md',
    'skill://hamlet-knowledge/SKILL.md',
  ]);
  const { resourceTemplates } = await anonymous.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), [
    'hamlet://acme/articles/{slug}',
    'hamlet://acme/topics/{topic_id}',
  ]);
  await assert.rejects(anonymous.readResource({ uri: 'hamlet://acme/guidelines' }), /hmlt_live_/);
  await anonymous.close();

  const guidelines = await client.readResource({ uri: 'hamlet://acme/guidelines' });
  assert.equal(guidelines.contents[0]!.mimeType, 'text/markdown');
  const article = await client.readResource({ uri: 'hamlet://acme/articles/getting-started' });
  assert.match(
    String((article.contents[0] as { text: string }).text),
    /^# Getting started with Hamlet/,
  );
  await assert.rejects(
    client.readResource({ uri: 'hamlet://acme/topics/no-such-topic' }),
    /not|No/,
  );
});

test('completion suggests topic slugs and categories; summarize_topic embeds the topic', async () => {
  const { topics } = (
    await client.callTool({ name: 'list_topics', arguments: { category: 'support' } })
  ).structuredContent as { topics: Array<{ id: string; slug: string; title: string }> };
  const topic = topics.find((t) => t.slug.startsWith('how-do-i-run'))!;
  const byPrefix = await client.complete({
    ref: { type: 'ref/resource', uri: 'hamlet://acme/topics/{topic_id}' },
    argument: { name: 'topic_id', value: 'how-do-i-run' },
  });
  assert.ok(byPrefix.completion.values.includes(topic.slug));
  const categories = await client.complete({
    ref: { type: 'ref/prompt', name: 'ask_a_good_question' },
    argument: { name: 'category', value: 'su' },
  });
  assert.deepEqual(categories.completion.values, ['support']);
  const summary = await client.getPrompt({
    name: 'summarize_topic',
    arguments: { topic: topic.slug },
  });
  const embedded = summary.messages[0]!.content as {
    type: string;
    resource: { uri: string; text: string };
  };
  assert.equal(embedded.type, 'resource');
  assert.equal(embedded.resource.uri, `hamlet://acme/topics/${topic.id}`);
  assert.equal(JSON.parse(embedded.resource.text).topic.title, topic.title);
});

test('a subscribed topic reports its new post and its accepted answer', async () => {
  const { topics } = (
    await client.callTool({ name: 'list_topics', arguments: { filter: 'unanswered' } })
  ).structuredContent as { topics: Array<{ id: string }> };
  const topicId = topics[0]!.id;
  const uri = `hamlet://acme/topics/${topicId}`;
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
  });
  const updated = async (n: number) =>
    waitFor(() => updates.length >= n, { message: `${n} resource updates` });
  await waitFor(() => h.mcp.hub.liveSessionIds().has(sessionId), {
    message: 'the session stream to open',
  });
  await client.subscribeResource({ uri });

  const reply = (
    await client.callTool({
      name: 'reply_to_topic',
      arguments: { topic: topicId, body: 'Here is an answer worth accepting.' },
    })
  ).structuredContent as { post: { id: string } };
  await updated(1);
  assert.deepEqual(updates, [uri]);
  await client.callTool({
    name: 'mark_solution',
    arguments: { topic: topicId, post: reply.post.id },
  });
  await updated(2);
  assert.deepEqual(updates, [uri, uri]);
  const read = await client.readResource({ uri });
  assert.equal(
    JSON.parse((read.contents[0] as { text: string }).text).topic.solution_post_id,
    reply.post.id,
  );

  await client.unsubscribeResource({ uri });
  await client.callTool({
    name: 'reply_to_topic',
    arguments: { topic: topicId, body: 'A later reply nobody subscribed to.' },
  });
  // No sleep for "nothing came": the next update heard is that of a topic subscribed after.
  const { topics: all } = (await client.callTool({ name: 'list_topics', arguments: {} }))
    .structuredContent as { topics: Array<{ id: string; is_article: boolean }> };
  const otherId = all.find((t) => t.id !== topicId && !t.is_article)!.id;
  const later = `hamlet://acme/topics/${otherId}`;
  await client.subscribeResource({ uri: later });
  await client.callTool({
    name: 'reply_to_topic',
    arguments: { topic: otherId, body: 'A reply to the other subscribed topic.' },
  });
  await updated(3);
  assert.deepEqual(updates, [uri, uri, later], 'the reply while unsubscribed was not reported');
});
