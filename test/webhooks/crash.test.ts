// The outbox survives a crash: Hamlet runs as a child process, delivers to a receiver that holds
// each request for a while, and is killed with SIGKILL while deliveries are in flight. Restarted on
// the same database, it delivers every event at least once, and a delivery interrupted by the kill
// is sent again with the same webhook-id (its lease expired; no attempt is lost or invented).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import '../helpers/localhost-dns.mjs';
import { Receiver, waitFor } from './receiver.ts';
import { prepareHookedCommunity, servingOn, startServe } from './serve-with-hook.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-crash-'));
const children: ChildProcess[] = [];
let rx: Receiver | undefined;
after(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await rx?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

test('after SIGKILL mid-dispatch every event is delivered at least once, a repeat with the same webhook-id', async () => {
  // Until the kill the receiver holds every request (no delivery can finish); afterwards it answers at once.
  rx = await new Receiver().on('/hook', { delayMs: 60_000 }).start();
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`,
    LOG_LEVEL: 'warn',
    HAMLET_WEBHOOK_ALLOW_PRIVATE: '1',
    HAMLET_WEBHOOK_TIMEOUT_MS: '2500',
    HAMLET_WEBHOOK_RETRY_BASE_MS: '100',
  };
  // The database, with an endpoint and an agent, prepared before the server starts.
  const { key } = await prepareHookedCommunity(env, 'crashy', rx.url('/hook'));
  const start = () => startServe(env, children);
  const up = () => servingOn(port);

  const first = start();
  await up();
  const titles = Array.from({ length: 5 }, (_, i) => `Crash test topic number ${i + 1}`);
  const ids: string[] = [];
  for (const title of titles) {
    const r = await fetch(`http://crashy.localhost:${port}/api/v1/topics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        category: 'support',
        title,
        body: 'Delivered at least once, whatever happens.',
      }),
    });
    assert.equal(r.status, 201);
    ids.push((await r.json()).topic.id);
  }
  // Deliveries are in flight (held by the receiver, within the 2.5 s timeout): kill the server now.
  const receiver = rx;
  await waitFor(() => receiver.received.length >= 1, 10_000, 'the first delivery to arrive');
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const beforeKill = rx.received.map((r) => String(r.headers['webhook-id']));
  rx.on('/hook', {});

  start();
  await up();
  // Answered (2xx) deliveries are those after the restart: the ones before were held, never answered.
  const delivered = () =>
    new Set(
      receiver.received
        .slice(beforeKill.length)
        .map((r) => JSON.parse(r.body).data.topic.id as string),
    );
  await waitFor(
    () => ids.every((id) => delivered().has(id)),
    30_000,
    'every topic delivered after the restart',
  );
  const repeated = rx.received
    .slice(beforeKill.length)
    .map((r) => String(r.headers['webhook-id']))
    .filter((id) => beforeKill.includes(id));
  assert.ok(
    repeated.length >= 1,
    'a delivery interrupted by the kill was sent again with its webhook-id',
  );
  // One webhook-id per event: repeats never mint a new id.
  const idsPerEvent = new Map<string, Set<string>>();
  for (const r of rx.received) {
    const event = JSON.parse(r.body).id as string;
    idsPerEvent.set(
      event,
      (idsPerEvent.get(event) ?? new Set()).add(String(r.headers['webhook-id'])),
    );
  }
  assert.equal(idsPerEvent.size, titles.length);
  for (const set of idsPerEvent.values()) assert.equal(set.size, 1);
});
