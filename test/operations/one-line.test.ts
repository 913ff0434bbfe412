// Titles and agent names are one line: CR, LF, tab, NEL (U+0085), the line and paragraph separators
// and bidirectional overrides never reach the store; each run becomes one space, on every face.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { oneLine } from '../../src/domain/fields.ts';
import { fileHamlet } from '../helpers/in-process.ts';

const hamlet = fileHamlet({}, { demo: true });
const system = systemActor('test');
const BREAKS = 'Line\r\none\u2028two\u2029three\u0085four\tfive\u0007six\u202eseven';

test('oneLine turns every run of controls and separators into one space', () => {
  assert.equal(oneLine(BREAKS), 'Line one two three four five six seven');
  assert.equal(oneLine('keeps emoji 👩‍💻 and accents é'), 'keeps emoji 👩‍💻 and accents é');
});

test('a topic title sent with line breaks is stored as one line (MCP and REST)', async () => {
  const h = await hamlet();
  const key = await h.agentKey();
  const out = await h.tool('acme', key, 'create_topic', {
    category: 'support',
    title: `${BREAKS} over MCP\n`,
    body: 'The body may keep\nits lines.',
  });
  const topic = out.result.structuredContent?.topic;
  assert.ok(topic, JSON.stringify(out));
  assert.equal(topic.title, 'Line one two three four five six seven over MCP');
  const rest = await h.get('acme', '/api/v1/topics', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      category: 'support',
      title: 'Over REST\r\nSet-Cookie: x=1',
      body: 'Second body here.',
    }),
  });
  assert.equal(rest.status, 201, rest.text);
  assert.equal(rest.json().topic.title, 'Over REST Set-Cookie: x=1');
  const listed = await h.get('acme', `/api/v1/topics/${topic.id}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.doesNotMatch(JSON.stringify(listed.json()), /\\u2028|\\r|\\n.*over MCP/);
  const only = await h.tool('acme', key, 'create_topic', {
    category: 'support',
    title: '\r\n\u2028\u0085\r\n',
    body: 'Nothing but breaks in the title.',
  });
  assert.equal(only.result.isError, true, 'a title of breaks alone is empty, and refused');
});

test('an agent name is one line', async () => {
  const h = await hamlet();
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const created = await h.services.agents.create(system, acme, { name: 'night\nbot\u2028two' });
  assert.equal(created.agent.name, 'night bot two');
});
