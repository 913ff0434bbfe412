// serialize writes what JSON.stringify would, except that a frozen value (a surface's tool list) is
// written from the text it was serialised to once, whether it is a response's result or one of its
// members, in a single response or a batch, and big ids still go out as numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frozenJson, parseBody, serialize } from './wire.ts';

test('a frozen list is written from its one serialisation, as JSON.stringify would write it', () => {
  const tools = frozenJson([{ name: 'a', title: undefined, inputSchema: { type: 'object' } }]);
  const single = { jsonrpc: '2.0', id: 7, result: { tools, ttlMs: 0, none: undefined } };
  assert.equal(serialize(single), JSON.stringify(single));
  const batch = [single, { jsonrpc: '2.0', id: 8, result: tools }, { jsonrpc: '2.0', id: 9 }];
  assert.equal(serialize(batch), JSON.stringify(batch));
  // The text made when it was frozen is what goes out: the list is not stringified again.
  (tools[0] as { name: string }).name = 'changed';
  assert.match(serialize(single), /"name":"a"/);
  assert.doesNotMatch(serialize(single), /changed/);
});

test('without frozen values serialize is JSON.stringify, big ids exact', () => {
  const plain = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }] } };
  assert.equal(serialize(plain), JSON.stringify(plain));
  const parsed = parseBody('{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}');
  assert.ok(parsed.ok);
  const id = (parsed.value as { id: unknown }).id;
  const tools = frozenJson([{ name: 't' }]);
  assert.equal(
    serialize({ jsonrpc: '2.0', id, result: { tools } }),
    '{"jsonrpc":"2.0","id":12345678901234567890,"result":{"tools":[{"name":"t"}]}}',
  );
});
