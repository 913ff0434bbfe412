// Maintenance mode from the CLI reaches a serving instance through the database: while on, reads
// serve and writes on every face get 503 with Retry-After and the operator's message (an MCP tool
// call: code `unavailable` with retry_after_ms); once off, the same write is taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDemoAgentKey } from '../../src/demo/demo-key.ts';
import { raw, rpc } from '../mcp/http-client.ts';
import { startTestHamlet } from '../app/helpers.ts';
import { runCli } from '../helpers/cli.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';

test('hamlet maintenance on: reads serve, writes get 503 with the message; off: writes are taken (SQLite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-maintenance-'));
  try {
    await maintenanceRound(`sqlite:${join(dir, 'hamlet.db')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the same on PostgreSQL', async (t) => {
  const setup = await freshPostgresDatabase('maintenance');
  if (!setup.ok) {
    if (setup.fail) assert.fail(setup.reason);
    return t.skip(setup.reason);
  }
  try {
    await maintenanceRound(setup.url);
  } finally {
    await setup.drop();
  }
});

async function maintenanceRound(databaseUrl: string): Promise<void> {
  const env = { DATABASE_URL: databaseUrl };
  const h = await startTestHamlet(env, { demo: true });
  try {
    const key = (await freshDemoAgentKey(h.store, h.services.agents))!.key;
    const auth = { authorization: `Bearer ${key}` };
    const write = () =>
      raw(h.hostUrl('localhost', '/c/acme/api/v1/topics'), {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          category: 'general',
          title: 'Written around a maintenance window',
          body: 'Posted when writes are taken again.',
        }),
      });
    const on = await runCli(
      ['maintenance', 'on', '--message', 'Restoring last night’s backup.'],
      env,
    );
    assert.equal(on.code, 0, on.err);
    assert.match(on.out, /Maintenance is on since .*Restoring last night’s backup\./);
    // The instance reads the state every 2 s.
    await h.services.maintenance.refresh();

    const refused = await write();
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.headers['retry-after'], '30');
    assert.match(refused.json().detail, /Restoring last night’s backup\./);
    const tool = (
      await rpc(
        h.hostUrl('localhost', '/c/acme/api/mcp'),
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'create_topic',
            arguments: {
              category: 'general',
              title: 'Asked over MCP during maintenance',
              body: 'This write is refused while maintenance is on.',
            },
          },
        },
        { ...auth, accept: 'application/json, text/event-stream' },
      )
    ).json();
    assert.equal(tool.result.structuredContent.code, 'unavailable');
    assert.equal(tool.result.structuredContent.retry_after_ms, 30_000);
    const read = await raw(h.hostUrl('localhost', '/c/acme/api/v1/topics'), { headers: auth });
    assert.equal(read.status, 200, 'reads serve');
    assert.equal((await raw(h.hostUrl('localhost', '/c/acme/'))).status, 200, 'pages serve');

    const status = await runCli(['maintenance', 'status'], env);
    assert.match(status.out, /Maintenance is on/);
    const off = await runCli(['maintenance', 'off'], env);
    assert.match(off.out, /Maintenance is off/);
    await h.services.maintenance.refresh();
    assert.equal((await write()).status, 201);
  } finally {
    await h.stop();
  }
}
