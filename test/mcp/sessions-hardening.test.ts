// What an outsider must not be able to do to the session machinery of the legacy era: flood it with
// anonymous sessions, make every notification read every session, store megabytes of client info,
// use or end another credential's session, hold open unbounded event streams, crash a request with
// deep JSON or corrupt a large id.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemorySessionStore } from '../../src/mcp/memory-sessions.ts';
import type { SessionStore } from '../../src/mcp/session-store.ts';
import { StreamLimits } from '../../src/mcp/stream-limits.ts';
import { startFixtureServer, type FixtureServer } from '../conformance/fixture-server.ts';
import { waitFor } from '../helpers/wait.ts';
import { INITIALIZE, raw, rpc } from './http-client.ts';

/** Counts what the engine reads from the store: a notification must not read every session. */
class CountingStore extends InMemorySessionStore {
  gets = 0;
  scans = 0;
  override async get(id: string) {
    this.gets++;
    return super.get(id);
  }
  override async listIds(scope: string) {
    this.scans++;
    return super.listIds(scope);
  }
}

const sessions = new CountingStore();
const problems: object[] = [];
let server: FixtureServer;
before(async () => {
  server = await startFixtureServer(0, {
    sessions: sessions as SessionStore,
    sessionCaps: { perClientIp: 20, perOwner: 5 },
    streamCaps: { perClientIp: 3, perSession: 2 },
    logger: { warn: (o) => problems.push(o), error: (o) => problems.push(o) },
  });
});
after(() => server.close());

const init = (headers: Record<string, string> = {}) =>
  rpc(server.url, INITIALIZE('2025-11-25'), headers);

describe('anonymous session flood', () => {
  test('a batch opens at most one session: every initialize after the first is refused', async () => {
    const before = await sessions.count();
    const res = await rpc(
      server.url,
      Array.from({ length: 100 }, (_, i) => INITIALIZE('2025-11-25', i + 1)),
    );
    const answers = res.json() as Array<{
      id: number;
      result?: unknown;
      error?: { code: number; message: string };
    }>;
    assert.equal(answers.filter((a) => a.result).length, 1);
    assert.equal(
      answers.filter((a) => a.error?.message === 'At most one initialize per POST.').length,
      99,
    );
    assert.equal((await sessions.count()) - before, 1);
  });

  test('sessions per address are capped: the longest idle makes room, the newest works', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await init()).headers['mcp-session-id']!);
    const alive = (await Promise.all(ids.map((id) => sessions.get(id)))).filter(Boolean).length;
    assert.ok(alive <= 20, `${alive} sessions of one address alive`);
    assert.equal(await sessions.get(ids[0]!), undefined, 'the oldest went');
    assert.equal(
      (
        await rpc(
          server.url,
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { 'mcp-session-id': ids.at(-1)! },
        )
      ).status,
      200,
    );
  });

  test('sessions per credential are capped too', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push((await init({ authorization: 'Bearer owner-key' })).headers['mcp-session-id']!);
    assert.ok((await Promise.all(ids.map((id) => sessions.get(id)))).filter(Boolean).length <= 5);
  });

  test('a resource update reads its subscribers from an index, not every session of the endpoint', async () => {
    const sid = (await init()).headers['mcp-session-id']!;
    await rpc(
      server.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'resources/subscribe',
        params: { uri: 'test://watched-resource' },
      },
      { 'mcp-session-id': sid },
    );
    sessions.gets = 0;
    sessions.scans = 0;
    assert.equal(
      await server.stack.engine.notifyResourceUpdated('fixture', 'test://watched-resource'),
      1,
    );
    assert.deepEqual([sessions.gets, sessions.scans], [0, 0]);
  });

  test('stored client info is bounded: name, title and version, cut short; only the capabilities acted on', async () => {
    const huge = 'x'.repeat(200_000);
    const res = await rpc(server.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        clientInfo: { name: huge, version: '1', extra: huge },
        capabilities: { elicitation: { form: {} }, experimental: { blob: huge } },
      },
    });
    const stored = (await sessions.get(res.headers['mcp-session-id']!))!;
    assert.equal(stored.clientInfo!.name!.length, 200);
    assert.equal('extra' in stored.clientInfo!, false);
    assert.deepEqual(stored.clientCapabilities, { elicitation: { form: {} } });
  });
});

describe('a session belongs to the credential that opened it', () => {
  test('another key, or no key, cannot use, stream or end it; its own key can', async () => {
    const mine = { authorization: 'Bearer key-a' };
    const sid = (await init(mine)).headers['mcp-session-id']!;
    const ping = (headers: Record<string, string>) =>
      rpc(
        server.url,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { 'mcp-session-id': sid, ...headers },
      );
    assert.equal((await ping({ authorization: 'Bearer key-b' })).status, 404);
    assert.equal((await ping({})).status, 404);
    assert.equal(
      (await raw(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } }))
        .status,
      404,
    );
    assert.equal(
      (
        await raw(server.url, {
          method: 'DELETE',
          headers: { 'mcp-session-id': sid, 'x-api-key': 'key-b' },
        })
      ).status,
      404,
    );
    assert.ok(await sessions.get(sid), 'still there');
    assert.equal((await ping(mine)).status, 200);
    assert.equal(
      (await raw(server.url, { method: 'DELETE', headers: { 'mcp-session-id': sid, ...mine } }))
        .status,
      204,
    );
  });

  test('an anonymous session takes no key', async () => {
    const sid = (await init()).headers['mcp-session-id']!;
    assert.equal(
      (
        await rpc(
          server.url,
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { 'mcp-session-id': sid, authorization: 'Bearer key-a' },
        )
      ).status,
      404,
    );
  });
});

describe('an application may name what owns a session (a grant whose tokens rotate)', () => {
  test('a new token of the same grant keeps the session; a token of another grant does not', async () => {
    // Tokens look like "<grant>.<serial>": the application says the grant owns the session.
    const own = await startFixtureServer(0, {
      sessionOwner: (credential) => credential?.split('.')[0],
    });
    try {
      const opened = await rpc(
        own.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        },
        { authorization: 'Bearer grant7.token1' },
      );
      const sid = opened.headers['mcp-session-id']!;
      const ping = (token: string) =>
        rpc(
          own.url,
          { jsonrpc: '2.0', id: 2, method: 'ping' },
          { 'mcp-session-id': sid, authorization: `Bearer ${token}` },
        );
      assert.equal(
        (await ping('grant7.token2')).status,
        200,
        'a refreshed token of the same grant keeps the session',
      );
      assert.equal((await ping('grant8.token1')).status, 404, 'another grant cannot use it');
    } finally {
      await own.close();
    }
  });
});

describe('event streams are capped per address and per session', () => {
  test('beyond the cap per address a GET stream is refused with 429; closing one makes room', async () => {
    const open = async () => {
      const sid = (await init({ authorization: 'Bearer streams' })).headers['mcp-session-id']!;
      const controller = new AbortController();
      const res = await fetch(server.url, {
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': sid,
          authorization: 'Bearer streams',
        },
        signal: controller.signal,
      });
      return { status: res.status, close: () => controller.abort() };
    };
    const held = [await open(), await open(), await open()];
    assert.deepEqual(
      held.map((s) => s.status),
      [200, 200, 200],
    );
    const fourth = await open();
    assert.equal(fourth.status, 429);
    held[0]!.close();
    // The server frees the slot when it sees the connection close; a refused try holds none.
    const again = await waitFor(async () => {
      const next = await open();
      if (next.status === 200) return next;
      next.close();
      return undefined;
    });
    assert.equal(again.status, 200);
    for (const s of [...held, again]) s.close();
  });

  test('a session holds at most its cap of streams, whatever the address', () => {
    const limits = new StreamLimits({ perClientIp: 100, perSession: 2 });
    const a = limits.acquire('10.0.0.1', 's1');
    const b = limits.acquire('10.0.0.2', 's1');
    assert.ok(a && b);
    assert.equal(limits.acquire('10.0.0.3', 's1'), undefined);
    assert.ok(limits.acquire('10.0.0.3', 's2'), 'another session is not affected');
    a!();
    a!();
    assert.ok(limits.acquire('10.0.0.3', 's1'), 'a released place is taken again, once');
    assert.equal(limits.acquire('10.0.0.4', 's1'), undefined);
  });
});

describe('malformed bodies', () => {
  test('5,000-deep nesting is a clean -32600, nothing logged', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"x","version":"1"},"capabilities":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
    problems.length = 0;
    const res = await rpc(server.url, deep);
    assert.equal(res.status, 400);
    assert.equal(res.json().error.code, -32600);
    assert.deepEqual(problems, []);
  });

  test('an integer id beyond 2^53 is echoed digit for digit, alone or in a batch', async () => {
    const big = '123456789012345678901234567890';
    const single = await rpc(server.url, `{"jsonrpc":"2.0","id":${big},"method":"ping"}`);
    assert.equal(single.text, `{"jsonrpc":"2.0","id":${big},"result":{}}`);
    const batch = await rpc(
      server.url,
      `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":-${big},"method":"ping"}]`,
    );
    assert.equal(
      batch.text,
      `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":-${big},"result":{}}]`,
    );
  });
});
