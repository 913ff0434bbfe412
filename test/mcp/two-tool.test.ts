import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpEngine, type Exchange } from '../../src/mcp/engine.ts';
import { InMemorySessionStore } from '../../src/mcp/memory-sessions.ts';
import type { Surface } from '../../src/mcp/surface.ts';
import { twoToolMode } from '../../src/mcp/two-tool.ts';
import { fixtureSurface } from '../conformance/fixture-surface.ts';

const logger = { warn() {}, error() {} };

function setup() {
  const base = fixtureSurface();
  const surface: Surface = { ...base, tools: twoToolMode(base.tools, { logger, searchLimit: 3 }) };
  const engine = new McpEngine(new InMemorySessionStore(), logger, { sessionsEnabled: false });
  const ex: Exchange = { surface, scope: 't', clientIp: '127.0.0.1' };
  let id = 0;
  const call = async (method: string, params: Record<string, unknown> = {}) => {
    const res = await engine.handleRequest({ jsonrpc: '2.0', id: ++id, method, params }, ex);
    return res as { result?: any; error?: { code: number; message: string } };
  };
  return { call };
}

test('tools/list shows exactly search and execute', async () => {
  const { call } = setup();
  const { result } = await call('tools/list');
  assert.deepEqual(
    result.tools.map((t: { name: string }) => t.name),
    ['search', 'execute'],
  );
});

test('search ranks tools by what they do and honours the default limit', async () => {
  const { call } = setup();
  const { result } = await call('tools/call', {
    name: 'search',
    arguments: { query: 'echo a message back' },
  });
  assert.equal(result.isError, false);
  assert.equal(result.structuredContent.tools[0].name, 'hamlet_echo');
  assert.ok(result.structuredContent.tools[0].inputSchema.properties.message);
  const many = await call('tools/call', {
    name: 'search',
    arguments: { query: 'test elicitation content image audio' },
  });
  assert.equal(many.result.structuredContent.tools.length, 3);
  assert.ok(many.result.structuredContent.total > 3);
  const none = await call('tools/call', {
    name: 'search',
    arguments: { query: 'zebra xylophone' },
  });
  assert.equal(none.result.structuredContent.total, 0);
});

test('search reveals public metadata only', async () => {
  const { call } = setup();
  const { result } = await call('tools/call', {
    name: 'search',
    arguments: { query: 'echo', limit: 50 },
  });
  for (const t of result.structuredContent.tools) {
    assert.deepEqual(
      Object.keys(t).filter(
        (k) => !['name', 'title', 'description', 'inputSchema', 'annotations'].includes(k),
      ),
      [],
    );
  }
});

test('execute validates inputs against the target schema and runs it like tools/call', async () => {
  const { call } = setup();
  const ok = await call('tools/call', {
    name: 'execute',
    arguments: { tool: 'hamlet_echo', inputs: { message: 'hi', times: 2 } },
  });
  assert.deepEqual(ok.result.structuredContent, { echoed: ['hi', 'hi'] });
  const bad = await call('tools/call', {
    name: 'execute',
    arguments: { tool: 'hamlet_echo', inputs: { message: '' } },
  });
  assert.equal(bad.result.isError, true);
  assert.deepEqual(Object.keys(bad.result.structuredContent), ['error']);
  const missing = await call('tools/call', { name: 'execute', arguments: { tool: 'nope' } });
  assert.equal(missing.result.structuredContent.code, 'not_found');
  const failing = await call('tools/call', {
    name: 'execute',
    arguments: { tool: 'test_error_handling' },
  });
  assert.equal(failing.result.structuredContent.code, 'internal');
  const direct = await call('tools/call', { name: 'hamlet_echo', arguments: { message: 'x' } });
  assert.equal(direct.error?.code, -32601, 'hidden tools are not callable by name');
});
