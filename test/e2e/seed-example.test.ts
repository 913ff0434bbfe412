// The seed's worked tools/call (search_community with solved_only: true, limit: 2), sent with curl
// exactly as the documentation shows it, and every field of the answer checked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

let h: TestHamlet;
let key: string;
before(async () => {
  h = await startTestHamlet({}, { demo: true });
  const acme = (await h.store.communities.getBySlug('acme'))!;
  ({ key } = await h.services.agents.create(systemActor('test'), acme, {
    name: 'seed-agent',
    scopes: [],
  }));
});
after(() => h.stop());

// Asynchronous: the server answers from this same process, so the event loop must stay free.
const curl = async (args: string[]) =>
  (await promisify(execFile)('curl', ['-sS', ...args], { encoding: 'utf8' })).stdout;

test('curl: search_community with filters { solved_only: true, limit: 2 }', async () => {
  const out = await curl([
    `http://acme.localhost:${h.port}/api/mcp`,
    '-H',
    'content-type: application/json',
    '-H',
    `authorization: Bearer ${key}`,
    '-d',
    JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'search_community',
        arguments: {
          query: 'webhook signature verification',
          filters: { solved_only: true, limit: 2 },
        },
      },
    }),
  ]);
  const body = JSON.parse(out);
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(body.id, 2);
  const { result } = body;
  assert.deepEqual(Object.keys(result).sort(), ['content', 'isError', 'structuredContent']);
  assert.equal(result.isError, false);
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  assert.equal(
    result.content[0].text,
    JSON.stringify(result.structuredContent, null, 2),
    'content[0].text is structuredContent pretty-printed',
  );

  const data = result.structuredContent;
  assert.equal(data.query, 'webhook signature verification');
  assert.equal(data.mode, 'lexical');
  assert.equal(typeof data.total, 'number');
  assert.ok(
    data.results.length >= 1 && data.results.length <= 2,
    `limit 2 honoured (${data.results.length})`,
  );
  assert.ok(data.total >= data.results.length);
  for (const r of data.results) {
    // The seed's fields, and an answer's confidence (what agents reported of it) beside them.
    assert.deepEqual(
      Object.keys(r).sort(),
      [
        ...(r.source_type === 'post' ? ['confidence'] : []),
        'author',
        'category',
        'created_at',
        'is_solution',
        'score',
        'snippet',
        'source_id',
        'source_type',
        'title',
        'topic_id',
        'url',
      ].sort(),
    );
    assert.ok(['topic', 'post', 'article'].includes(r.source_type));
    assert.match(r.source_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.match(r.topic_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.ok(r.title.length > 0);
    assert.ok(r.snippet.length > 0);
    assert.match(r.snippet, /\*\*[^*]+\*\*/, 'matched words are marked');
    const url = new URL(r.url);
    assert.equal(url.host, `acme.localhost:${h.port}`);
    assert.match(url.pathname, /^\/t\/[a-z0-9-]+$/);
    if (r.source_type === 'post') assert.equal(url.hash, `#post-${r.source_id}`);
    assert.ok(r.score >= 0 && r.score <= 1);
    assert.equal(typeof r.category, 'string');
    assert.equal(typeof r.author, 'string');
    assert.equal(r.is_solution, true, 'solved_only: every result is an accepted answer');
    assert.match(r.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  }
  // The accepted answer opens in a browser at the URL the result gives.
  const page = await curl([
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    data.results[0].url.split('#')[0],
  ]);
  assert.ok(
    ['200', '404'].includes(page),
    'the topic URL is served by this host (web pages come with the web issue)',
  );
});

test('curl: the seed initialize and notifications/initialized examples', async () => {
  const init = JSON.parse(
    await curl([
      `http://acme.localhost:${h.port}/api/mcp`,
      '-H',
      'content-type: application/json',
      '-d',
      '{ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "my-agent", "version": "0.1.0" } } }',
    ]),
  );
  assert.equal(init.result.protocolVersion, '2025-06-18');
  assert.deepEqual(init.result.serverInfo, {
    name: 'hamlet',
    title: 'Hamlet: acme',
    version: init.result.serverInfo.version,
  });
  const head = await curl([
    '-i',
    `http://acme.localhost:${h.port}/api/mcp`,
    '-H',
    'content-type: application/json',
    '-d',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  ]);
  assert.match(head, /^HTTP\/1\.1 202 Accepted\r\n/);
  assert.match(head, /\r\n\r\n$/, 'empty body');
});
