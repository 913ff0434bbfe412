import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, ErrorCode, ErrorText } from './jsonrpc.ts';

test('classify: requests, notifications and responses', () => {
  assert.equal(classify({ jsonrpc: '2.0', id: 1, method: 'ping' }).kind, 'request');
  assert.equal(classify({ jsonrpc: '2.0', id: 'a', method: 'ping', params: {} }).kind, 'request');
  assert.equal(
    classify({ jsonrpc: '2.0', method: 'notifications/initialized' }).kind,
    'notification',
  );
  assert.equal(classify({ jsonrpc: '2.0', id: 3, result: {} }).kind, 'response');
  assert.equal(
    classify({ jsonrpc: '2.0', id: 3, error: { code: 1, message: 'x' } }).kind,
    'response',
  );
});

test('classify: the seed error texts', () => {
  const cases: Array<[unknown, string, unknown]> = [
    [{ foo: 1 }, ErrorText.notJsonRpc, null],
    [{ jsonrpc: '1.0', id: 4, method: 'ping' }, ErrorText.notJsonRpc, 4],
    [42, ErrorText.notJsonRpc, null],
    [{ jsonrpc: '2.0', id: 5 }, ErrorText.missingMethod, 5],
    [{ jsonrpc: '2.0', id: 6, method: 'x', params: [1, 2] }, ErrorText.notJsonRpc, 6],
    [{ jsonrpc: '2.0', id: { nested: true }, method: 'x' }, ErrorText.notJsonRpc, null],
    [{ jsonrpc: '2.0', id: 7, method: '' }, ErrorText.missingMethod, 7],
  ];
  for (const [value, message, id] of cases) {
    const c = classify(value);
    assert.equal(c.kind, 'invalid', JSON.stringify(value));
    if (c.kind === 'invalid') {
      assert.equal(c.error.code, ErrorCode.InvalidRequest);
      assert.equal(c.error.message, message, JSON.stringify(value));
      assert.equal(c.id, id);
    }
  }
});
