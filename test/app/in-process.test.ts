// The file Hamlet of test/helpers/in-process.ts: one server for the file's tests, web pages and REST
// on a community's host by the Host header alone, MCP tool calls with the demo agent's key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileHamlet } from '../helpers/in-process.ts';

const hamlet = fileHamlet({}, { demo: true });
const TOPIC = 'verifying-the-hamlet-signature-header';

test('a web page and the REST API answer on the community host named by the Host header', async () => {
  const h = await hamlet();
  const page = await h.get('acme', `/t/${TOPIC}`);
  assert.equal(page.status, 200);
  assert.match(page.headers['content-type'] ?? '', /text\/html/);
  const key = await h.agentKey();
  const topics = await h.get('acme', '/api/v1/topics', {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(topics.status, 200, topics.text);
  assert.ok(JSON.stringify(topics.json()).includes(TOPIC));
});

test('an MCP tool call with the demo key answers; without a key the call is refused', async () => {
  const h = await hamlet();
  const key = await h.agentKey();
  const out = await h.tool('acme', key, 'get_topic', { topic: TOPIC });
  assert.equal(out.result.structuredContent.topic.url, `http://${h.host('acme')}/t/${TOPIC}`);
  const created = await h.tool('acme', undefined, 'create_topic', {
    category: 'general',
    title: 'Anonymous callers cannot write',
    body: 'This must be refused.',
  });
  assert.ok(created.error || created.result?.isError, JSON.stringify(created));
});

test('the same Hamlet serves every test of the file', async () => {
  const [a, b] = [await hamlet(), await hamlet()];
  assert.equal(a, b);
  assert.equal((await a.get(null, '/heartbeat')).status, 200);
});
