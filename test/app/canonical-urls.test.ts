// What is stored or sent later carries the community's canonical URL (its host form), whatever
// address the write came through: a webhook payload of a write through the path form `/c/acme/…` is
// byte for byte the one of the same write through `acme.<base>`, and the idempotency ledger replays
// one stored answer, handed back in the form of the request that replays it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Api, startRestFixture, type Fixture } from '../rest/fixture.ts';
import { Receiver, waitFor, type Received } from '../webhooks/receiver.ts';

let f: Fixture;
let rx: Receiver;
let byPath: Api;
let hostOrigin: string;
let pathOrigin: string;

before(async () => {
  rx = await new Receiver().start();
  f = await startRestFixture({ HAMLET_WEBHOOK_ALLOW_PRIVATE: '1' });
  hostOrigin = `http://acme.localhost:${f.h.port}`;
  pathOrigin = `http://localhost:${f.h.port}/c/acme`;
  byPath = new Api(pathOrigin);
  const hook = await f.api.call('POST', '/webhooks', {
    key: f.keys.owner,
    body: { url: rx.url('/topics'), events: ['topic.created'], description: 'topics' },
  });
  assert.equal(hook.status, 201, hook.text);
});
after(async () => {
  await f?.stop();
  await rx?.stop();
});

const create = (api: Api, key: string, title: string) =>
  api.call('POST', '/topics', {
    key: f.keys.writer,
    headers: { 'idempotency-key': key },
    body: { category: 'support', title, body: 'The same write, addressed two ways.' },
  });

/** A topic.created payload with what tells one topic or delivery from another replaced. */
function shapeOf(r: Received): string {
  const { topic } = (JSON.parse(r.body) as { data: { topic: { slug: string; title: string } } })
    .data;
  return r.body
    .replaceAll(topic.slug, '<slug>')
    .replaceAll(topic.title, '<title>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
}

test('a webhook payload is the same whether the write came through the host or the path form', async () => {
  const viaHost = await create(f.api, 'canonical-host-1', 'Canonical URLs alpha');
  const viaPath = await create(byPath, 'canonical-path-1', 'Canonical URLs bravo');
  assert.equal(viaHost.status, 201, viaHost.text);
  assert.equal(viaPath.status, 201, viaPath.text);
  // Each answer keeps the form its request came in.
  assert.ok(String(viaHost.json.topic.url).startsWith(`${hostOrigin}/t/`), viaHost.text);
  assert.ok(String(viaPath.json.topic.url).startsWith(`${pathOrigin}/t/`), viaPath.text);

  await waitFor(() => rx.at('/topics').length >= 2, 10_000, 'both topic.created deliveries');
  const [first, second] = ['alpha', 'bravo'].map((word) =>
    rx.at('/topics').find((r) => r.body.includes(`Canonical URLs ${word}`))!,
  );
  assert.ok(first && second, 'a delivery for each write');
  assert.ok(!second!.body.includes('/c/acme'), second!.body);
  assert.ok(second!.body.includes(`${hostOrigin}/t/`), second!.body);
  assert.equal(shapeOf(second!), shapeOf(first!));
});

test('an idempotent replay answers the one stored result, in the form of the request replaying it', async () => {
  const toHost = (text: string) => text.replaceAll(pathOrigin, hostOrigin);
  for (const [api, other, key] of [
    [byPath, f.api, 'canonical-replay-path'],
    [f.api, byPath, 'canonical-replay-host'],
  ] as const) {
    const written = await create(api, key, `Replayed ${key}`);
    assert.equal(written.status, 201, written.text);
    const again = await create(api, key, `Replayed ${key}`);
    const elsewhere = await create(other, key, `Replayed ${key}`);
    assert.equal(again.text, written.text);
    assert.equal(toHost(elsewhere.text), toHost(written.text));
    assert.notEqual(elsewhere.text, written.text, 'links follow the replaying request');
  }
});
