// How failures arrive, on both servers (seed: "How failures arrive"): tool failures are results with
// isError and {error, code}; argument-schema failures carry error only; a host that is no community
// is a JSON-RPC -32600 with HTTP 404.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { INITIALIZE, rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

let h: TestHamlet;
let acme: Community;
let reader: string; // agent key without scopes
let globexKey: string; // agent key of another community
let revoked: string;
let community: string;
let network: string;

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '30' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
  const globex = await h.store.communities.create({
    slug: 'globex',
    name: 'Globex',
    visibility: 'public',
  });
  const { agents } = h.services;
  const system = systemActor('test');
  ({ key: reader } = await agents.create(system, acme, { name: 'reader', scopes: [] }));
  ({ key: globexKey } = await agents.create(system, globex, {
    name: 'globex-bot',
    scopes: ['topic:create'],
  }));
  const doomed = await agents.create(system, acme, { name: 'doomed', scopes: ['topic:create'] });
  revoked = doomed.key;
  await agents.revokeKey(system, acme, { key: doomed.keyRecord.id });
  community = h.hostUrl('acme.localhost', '/api/mcp');
  network = h.hostUrl('localhost', '/api/mcp');
});
after(() => h.stop());

const callTool = (url: string, name: string, args: unknown, key?: string) =>
  rpc(
    url,
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    key ? { authorization: `Bearer ${key}` } : {},
  );

function failure(res: Awaited<ReturnType<typeof callTool>>) {
  assert.equal(res.status, 200);
  const { result } = res.json();
  assert.equal(result.isError, true);
  assert.equal(result.content[0].type, 'text');
  assert.equal(result.content[0].text, result.structuredContent.error);
  return result.structuredContent as { error: string; code?: string };
}

describe('community server', () => {
  test('no key: unauthorized, saying how to get one', async () => {
    const f = failure(await callTool(community, 'list_categories', {}));
    assert.equal(f.code, 'unauthorized');
    assert.match(f.error, /agent key of community "acme".*Authorization: Bearer hmlt_live_/);
  });

  test('the key also works as X-API-Key', async () => {
    const res = await rpc(
      community,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_categories', arguments: {} },
      },
      { 'x-api-key': reader },
    );
    assert.equal(res.json().result.isError, false);
  });

  test('missing scope: forbidden, with the seed sentence', async () => {
    const f = failure(
      await callTool(
        community,
        'create_topic',
        {
          category: 'support',
          title: 'A question that needs a scope',
          body: 'Body of the question, long enough.',
        },
        reader,
      ),
    );
    assert.deepEqual(f, {
      error:
        'This agent key is not scoped for "topic:create". Add the scope to the agent to allow it.',
      code: 'forbidden',
    });
  });

  test('a key of another community, a revoked key, a malformed key: unauthorized', async () => {
    const other = failure(await callTool(community, 'list_categories', {}, globexKey));
    assert.equal(other.code, 'unauthorized');
    assert.match(other.error, /globex|another community/);
    const gone = failure(await callTool(community, 'list_categories', {}, revoked));
    assert.equal(gone.code, 'unauthorized');
    assert.match(gone.error, /revoked/);
    const junk = failure(await callTool(community, 'list_categories', {}, 'hmlt_live_nope'));
    assert.equal(junk.code, 'unauthorized');
  });

  test('unknown topic: not_found', async () => {
    const f = failure(
      await callTool(
        community,
        'get_topic',
        { topic: '00000000-0000-4000-8000-000000000000' },
        reader,
      ),
    );
    assert.equal(f.code, 'not_found');
  });

  test('bad arguments: error only, no code', async () => {
    const f = failure(
      await callTool(community, 'search_community', { query: '', filters: { limit: 500 } }, reader),
    );
    assert.deepEqual(Object.keys(f), ['error']);
    assert.match(f.error, /query/);
    assert.match(f.error, /limit/);
  });

  test('content methods need the key; listing methods do not', async () => {
    for (const method of [
      'tools/list',
      'resources/list',
      'prompts/list',
      'resources/templates/list',
      'ping',
    ]) {
      const res = await rpc(community, { jsonrpc: '2.0', id: 1, method });
      assert.ok(res.json().result, method);
    }
    const read = await rpc(community, {
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/read',
      params: { uri: 'hamlet://acme/guidelines' },
    });
    assert.equal(read.json().error.code, -32003);
    assert.match(read.json().error.message, /hmlt_live_/);
    const ok = await rpc(
      community,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'resources/read',
        params: { uri: 'hamlet://acme/categories' },
      },
      { authorization: `Bearer ${reader}` },
    );
    assert.ok(
      JSON.parse(ok.json().result.contents[0].text).some(
        (c: { slug: string }) => c.slug === 'support',
      ),
    );
  });

  test('rate limit: rate_limited, saying when to retry', async () => {
    let limited: { error: string; code?: string } | undefined;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = (await callTool(community, 'list_categories', {}, reader)).json().result;
      if (res.isError) limited = res.structuredContent;
    }
    assert.ok(limited, 'the limit of 30 per minute is reached');
    assert.equal(limited!.code, 'rate_limited');
    assert.match(limited!.error, /Retry in \d+ s/);
  });
});

describe('network server', () => {
  test('ask_community without a user key: unauthorized; with an agent key: unauthorized', async () => {
    const args = {
      community: 'acme',
      category: 'support',
      title: 'A question from outside',
      body: 'Body of the question, long enough.',
    };
    assert.equal(failure(await callTool(network, 'ask_community', args)).code, 'unauthorized');
    assert.equal(
      failure(await callTool(network, 'ask_community', args, reader)).code,
      'unauthorized',
    );
  });

  test('unknown topic and unknown community: not_found', async () => {
    assert.equal(
      failure(
        await callTool(network, 'get_topic', { community: 'acme', topic: 'no-such-topic-slug' }),
      ).code,
      'not_found',
    );
    assert.equal(
      failure(await callTool(network, 'get_community', { community: 'nowhere' })).code,
      'not_found',
    );
  });

  test('bad arguments: error only, no code', async () => {
    const f = failure(
      await callTool(network, 'search_network', { query: 'x', communities: 'acme' }),
    );
    assert.deepEqual(Object.keys(f), ['error']);
  });
});

test('a host that is not a community: -32600 with HTTP 404, on any method', async () => {
  for (const body of [
    INITIALIZE(),
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_community', arguments: { query: 'x' } },
    },
  ]) {
    const res = await rpc(h.hostUrl('nope.localhost', '/api/mcp'), body);
    assert.equal(res.status, 404);
    assert.deepEqual(res.json().error, {
      code: -32600,
      message: 'This request did not resolve to a community.',
    });
  }
});

test('create_topic in a knowledge-base category writes an article and needs article:write', async () => {
  const { agents } = h.services;
  const system = systemActor('test');
  const { key: asker } = await agents.create(system, acme, {
    name: 'asker',
    scopes: ['topic:create'],
  });
  const { key: writer } = await agents.create(system, acme, {
    name: 'writer',
    scopes: ['topic:create', 'article:write'],
  });
  const args = {
    category: 'docs',
    title: 'Rotating agent keys safely',
    body: 'Mint a new key, switch the agent over, then revoke the old key.',
  };
  const refused = failure(await callTool(community, 'create_topic', args, asker));
  assert.deepEqual(refused, {
    error:
      'This agent key is not scoped for "article:write". Add the scope to the agent to allow it.',
    code: 'forbidden',
  });
  const written = (await callTool(community, 'create_topic', args, writer)).json().result;
  assert.equal(written.isError, false, JSON.stringify(written.structuredContent));
  assert.equal(written.structuredContent.status, 'applied');
  assert.equal(written.structuredContent.topic.is_article, true);
  assert.equal(written.structuredContent.message, 'The article was written.');
});
