// Categories over REST, run by the contract suite on each engine: only administrators manage them;
// slugs are checked and unique; reordering moves one and list_categories follows; deleting a
// non-empty category needs move_to, and its topics (and the search index) follow the move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fixture } from './fixture.ts';

const slugsOf = (r: { json: any }) => r.json.categories.map((c: { slug: string }) => c.slug);

export function categoryTests(fixture: () => Fixture): void {
  test('categories: created, edited, reordered and deleted (with and without move_to)', async () => {
    const { api, keys } = fixture();
    const owner = { key: keys.owner };
    const refused = await api.call('POST', '/categories', {
      key: keys.writer,
      body: { name: 'Billing' },
    });
    assert.equal(refused.status, 403);
    assert.match(refused.json.detail, /Only an administrator of "acme" can create categories/);
    const bad = await api.call('POST', '/categories', {
      ...owner,
      body: { name: 'Billing', slug: 'Not A Slug' },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.json.errors[0].path, 'slug');

    const made = await api.call('POST', '/categories', {
      ...owner,
      body: { name: 'Billing', description: 'Invoices and plans.', approval_policy: 'auto' },
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.json.slug, 'billing');
    assert.equal(made.json.approval_policy, 'auto');
    const before = await api.call('GET', '/categories', { key: keys.reader });
    assert.equal(slugsOf(before).at(-1), 'billing', 'a new category comes last');
    const again = await api.call('POST', '/categories', { ...owner, body: { name: 'Billing' } });
    assert.equal(again.status, 409);
    assert.match(again.json.detail, /slug "billing" already exists/);

    const edited = await api.call('PATCH', '/categories/billing', {
      ...owner,
      body: { name: 'Billing and plans', position: 1 },
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.json.position, 1);
    const after = await api.call('GET', '/categories', { key: keys.reader });
    assert.equal(slugsOf(after)[0], 'billing');
    assert.deepEqual(
      after.json.categories.map((c: { position: number }) => c.position),
      after.json.categories.map((_: unknown, i: number) => i + 1),
    );
    assert.deepEqual([...slugsOf(after)].sort(), [...slugsOf(before)].sort());

    const topic = await api.call('POST', '/topics', {
      key: keys.writer,
      body: {
        category: 'billing',
        title: 'Refund of a duplicated invoice',
        body: 'We were charged twice for the same month.',
      },
    });
    assert.equal(topic.status, 201, topic.text);
    const full = await api.call('DELETE', '/categories/billing', owner);
    assert.equal(full.status, 409);
    assert.match(full.json.detail, /holds 1 topic: say where they go with move_to/);
    const wrongKind = await api.call('DELETE', '/categories/billing', {
      ...owner,
      body: { move_to: 'docs' },
    });
    assert.equal(wrongKind.status, 422, wrongKind.text);
    const gone = await api.call('DELETE', '/categories/billing', {
      ...owner,
      body: { move_to: 'support' },
    });
    assert.equal(gone.status, 200, gone.text);
    assert.deepEqual(gone.json, { deleted: 'billing', moved_to: 'support', moved_topics: 1 });
    const moved = await api.call('GET', `/topics/${topic.json.topic.id}`, { key: keys.reader });
    assert.equal(moved.json.topic.category.slug, 'support');
    const found = await api.call('GET', '/search?q=duplicated%20invoice&category=support', {
      key: keys.reader,
    });
    assert.equal(found.json.results[0]?.topic_id, topic.json.topic.id, 'the index follows');
    const empty = await api.call('POST', '/categories', { ...owner, body: { name: 'Empty' } });
    assert.equal((await api.call('DELETE', `/categories/${empty.json.id}`, owner)).status, 200);
    assert.equal((await api.call('DELETE', '/categories/empty', owner)).status, 404);
  });
}
