// Sessions live in the database: a restarted server (or another instance) still knows them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INITIALIZE, rpc } from '../mcp/http-client.ts';
import { startTestHamlet } from './helpers.ts';

test('an MCP session survives a restart, with its log level and subscriptions', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-restart-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}` };
  try {
    const first = await startTestHamlet(env, { keepDatabase: true });
    await first.store.communities.create({ slug: 'acme', name: 'Acme', visibility: 'public' });
    const url = first.hostUrl('acme.localhost', '/api/mcp');
    const init = await rpc(url, INITIALIZE('2025-06-18'));
    const sid = init.headers['mcp-session-id']!;
    assert.equal(
      (
        await rpc(
          url,
          { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } },
          { 'mcp-session-id': sid },
        )
      ).status,
      200,
    );
    await first.stop();

    const second = await startTestHamlet(env, { keepDatabase: true });
    try {
      const url2 = second.hostUrl('acme.localhost', '/api/mcp');
      const ping = await rpc(
        url2,
        { jsonrpc: '2.0', id: 3, method: 'ping' },
        { 'mcp-session-id': sid },
      );
      assert.equal(ping.status, 200);
      assert.equal(
        ping.headers['mcp-protocol-version'],
        '2025-06-18',
        'the negotiated version is remembered',
      );
      const session = await second.store.mcpSessions.get(sid);
      assert.equal(session?.logLevel, 'error');
      assert.equal(
        (await rpc(url2, { jsonrpc: '2.0', id: 4, method: 'ping' }, { 'mcp-session-id': 'forged' }))
          .status,
        404,
      );
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
