// Bad input gets the same clean answer on both engines: the NUL character anywhere (a web path, tool
// arguments, straight into the store), forged cursors whose values do not fit the listing's column
// types, and dates outside 1970–9999. Never a 500, never code "internal".
import assert from 'node:assert/strict';
import { freshDemoAgentKey } from '../../src/demo/demo-key.ts';
import { InvalidText } from '../../src/store/errors.ts';
import { raw } from '../mcp/http-client.ts';
import { startTestHamlet } from '../app/helpers.ts';
import { eachEngine } from './engines.ts';
import { callTool, type ToolAnswer } from './mcp.ts';

const invalid = (answer: ToolAnswer, what: string) => {
  assert.equal(answer.status, 200, what);
  assert.equal(answer.rpcError, undefined, what);
  assert.equal(answer.isError, true, what);
  assert.notEqual(
    answer.structured?.code,
    'internal',
    `${what}: ${JSON.stringify(answer.structured)}`,
  );
  assert.match(answer.structured.error, /NUL|cursor|date|Invalid/i, what);
};

const decode = (cursor: string): unknown[] =>
  JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
const encode = (tuple: unknown[]) => Buffer.from(JSON.stringify(tuple)).toString('base64url');

/** A real cursor's listing tag with values that do not fit its keyset (by the type of its key). */
function forgeries(cursor: string): string[] {
  const [listing, key, id] = decode(cursor);
  const keys: unknown[] = [
    'abc',
    '2024-02-30T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    'a\u0000b',
    null,
    true,
  ];
  if (typeof key === 'string') keys.push(5);
  if (Number.isInteger(key)) keys.push(1e300, -1, 2 ** 31, 1.5);
  return [
    ...keys.map((k) => encode([listing, k, id])),
    encode([listing, key, 'not-a-uuid']),
    encode([listing, key, 7]),
    encode([listing, key, 'a\u0000b']),
  ];
}

eachEngine('bad input is refused cleanly', async (engine) => {
  const h = await startTestHamlet(engine.env, { demo: true });
  try {
    const demo = (await freshDemoAgentKey(h.store, h.services.agents))!;
    const community = h.hostUrl('acme.localhost', '/api/mcp');
    const network = h.hostUrl('localhost', '/api/mcp');
    const tool = (name: string, args: unknown) => callTool(community, name, args, demo.key);

    // The NUL character: in a web path, in tool arguments (read and write), in the network's too.
    for (const path of ['/t/a%00b', '/t/a%00b?cursor=x%00y']) {
      const page = await raw(h.hostUrl('acme.localhost', path));
      assert.ok(page.status === 404 || page.status === 400, `${path}: ${page.status}`);
    }
    invalid(await tool('get_topic', { topic: 'a\u0000b' }), 'get_topic topic');
    invalid(
      await tool('search_community', { query: 'webhook\u0000', filters: { author: 'x\u0000' } }),
      'search_community',
    );
    invalid(await tool('list_topics', { category: 'supp\u0000ort' }), 'list_topics category');
    invalid(
      await tool('create_topic', {
        category: 'support',
        title: 'A question with a NUL',
        body: 'The body has a \u0000 in it.',
      }),
      'create_topic body',
    );
    invalid(
      await tool('reply_to_topic', {
        topic: 'verifying-the-hamlet-signature-header',
        body: 'ok\u0000',
      }),
      'reply_to_topic body',
    );
    invalid(await callTool(network, 'search_network', { query: 'x\u0000y' }), 'search_network');
    invalid(
      await callTool(network, 'get_topic', { community: 'acme', topic: 'a\u0000b' }),
      'network get_topic',
    );
    const topics = (await tool('list_topics', { limit: 100 })).structured.topics as unknown[];
    assert.ok(
      !topics.some((t) => JSON.stringify(t).includes('NUL')),
      'the refused write left nothing behind',
    );
    // Below the faces, the store itself refuses it on both engines.
    await assert.rejects(h.store.communities.getBySlug('ac\u0000me'), InvalidText);

    // Forged cursors, from a real cursor of each listing with every wrong type swapped in.
    const listings: Array<[string, (cursor?: string) => Promise<ToolAnswer>]> = [
      ['list_topics latest', (cursor) => tool('list_topics', { limit: 1, cursor })],
      ['list_topics top', (cursor) => tool('list_topics', { sort: 'top', limit: 1, cursor })],
      [
        'list_topics created',
        (cursor) => tool('list_topics', { sort: 'created', limit: 1, cursor }),
      ],
      [
        'get_topic posts',
        (cursor) =>
          tool('get_topic', { topic: 'verifying-the-hamlet-signature-header', limit: 1, cursor }),
      ],
      [
        'search_community',
        (cursor) => tool('search_community', { query: 'agent', filters: { limit: 1, cursor } }),
      ],
      [
        'search_network',
        (cursor) =>
          callTool(network, 'search_network', { query: 'agent', filters: { limit: 1, cursor } }),
      ],
      [
        'network get_topic',
        (cursor) =>
          callTool(network, 'get_topic', {
            community: 'acme',
            topic: 'verifying-the-hamlet-signature-header',
            limit: 1,
            cursor,
          }),
      ],
    ];
    for (const [what, list] of listings) {
      const first = await list();
      assert.equal(first.isError, false, `${what}: ${JSON.stringify(first.structured)}`);
      const next = first.structured.next_cursor as string;
      assert.ok(next, `${what} has a second page`);
      assert.equal((await list(next)).isError, false, `${what}: the real cursor works`);
      for (const forged of forgeries(next))
        invalid(await list(forged), `${what} ${JSON.stringify(decode(forged))}`);
    }

    // Dates out of range, on both search tools.
    for (const filters of [
      { since: '0000-01-01' },
      { until: '10000-01-01' },
      { since: '1969-12-31T23:59:59Z' },
      { since: '2024-13-01' },
    ]) {
      invalid(
        await tool('search_community', { query: 'webhook', filters }),
        `search_community ${JSON.stringify(filters)}`,
      );
      invalid(
        await callTool(network, 'search_network', { query: 'webhook', filters }),
        `search_network ${JSON.stringify(filters)}`,
      );
    }
    assert.equal((await raw(h.hostUrl('localhost', '/heartbeat'))).status, 200);
    assert.ok(!h.logs.join('').includes('"level":50'), 'nothing was logged as an unexpected error');
  } finally {
    await h.stop();
  }
});
