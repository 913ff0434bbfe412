// Moderators' actions over REST and MCP, run by the contract suite on each engine: close/reopen
// (a closed topic refuses replies with the reason), close as a duplicate (linked both ways), soft
// delete and restore of a topic and a post (invisible to agents and search, shown to moderators
// with who and why), lock, pin, move, tags and merge, each logged once in the moderation log; and
// the moderation toolset's close_topic and mark_duplicate for an agent with "topic:moderate".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fixture } from './fixture.ts';
import { systemActor } from '../../src/domain/actor.ts';

export function moderationTests(fixture: () => Fixture): void {
  let n = 0;
  async function ask(title: string, body = 'What we tried, what happened, what we expected.') {
    const { api, keys } = fixture();
    const made = await api.call('POST', '/topics', {
      key: keys.writer,
      body: { category: 'support', title: `${title} ${++n}`, body },
    });
    assert.equal(made.status, 201, made.text);
    return made.json.topic as { id: string; slug: string; title: string };
  }
  const reply = (topic: string) =>
    fixture().api.call('POST', `/topics/${topic}/posts`, {
      key: fixture().keys.writer,
      body: { body: 'A reply to this topic.' },
    });
  async function searchFinds(query: string, topicId: string, want: boolean) {
    const { api, keys } = fixture();
    const deadline = Date.now() + 5000;
    for (;;) {
      const r = await api.call('GET', `/search?q=${encodeURIComponent(query)}`, {
        key: keys.reader,
      });
      const found = r.json.results.some((x: { topic_id: string }) => x.topic_id === topicId);
      if (found === want || Date.now() > deadline) return found;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  test('moderation: close refuses replies with the reason, reopen takes them again; members cannot close', async () => {
    const { api, keys } = fixture();
    const t = await ask('Gateway returns 502 after deploy');
    const refused = await api.call('POST', `/topics/${t.id}/close`, { key: keys.writer, body: {} });
    assert.equal(refused.status, 403);
    assert.match(refused.json.detail, /topic:moderate/);
    const closed = await api.call('POST', `/topics/${t.id}/close`, {
      key: keys.owner,
      body: { reason: 'Answered in the changelog' },
    });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.json.topic.status, 'closed');
    assert.equal(closed.json.changed, true);
    const again = await api.call('POST', `/topics/${t.id}/close`, { key: keys.owner, body: {} });
    assert.equal(again.json.changed, false, 'closing a closed topic changes nothing');
    const blocked = await reply(t.id);
    assert.equal(blocked.status, 409);
    assert.match(blocked.json.detail, /is closed and takes no new replies/);
    const read = await api.call('GET', `/topics/${t.id}`, { key: keys.reader });
    assert.equal(read.json.topic.status, 'closed');
    await api.call('POST', `/topics/${t.id}/reopen`, { key: keys.owner, body: {} });
    assert.equal((await reply(t.id)).status, 201);
  });

  test('moderation: close as a duplicate links both ways and refuses replies', async () => {
    const { api, keys } = fixture();
    const original = await ask('Webhook signature mismatch on retries');
    const dup = await ask('Retries fail the HMAC check');
    const marked = await api.call('POST', `/topics/${dup.id}/duplicate`, {
      key: keys.owner,
      body: { of: original.slug, reason: 'Same question' },
    });
    assert.equal(marked.status, 200, marked.text);
    assert.equal(marked.json.topic.status, 'closed');
    assert.equal(marked.json.topic.duplicate_of, original.id);
    const dupPage = await api.call('GET', `/topics/${dup.id}`, { key: keys.reader });
    assert.equal(dupPage.json.duplicate_of.id, original.id);
    const origPage = await api.call('GET', `/topics/${original.id}`, { key: keys.reader });
    assert.deepEqual(
      origPage.json.duplicates.map((d: { id: string }) => d.id),
      [dup.id],
    );
    const blocked = await reply(dup.id);
    assert.equal(blocked.status, 409);
    assert.match(blocked.json.detail, /duplicate/);
    const self = await api.call('POST', `/topics/${dup.id}/duplicate`, {
      key: keys.owner,
      body: { of: dup.id },
    });
    assert.equal(self.status, 422);
  });

  test('moderation: a deleted topic is not found by agents nor search, moderators see who and why; restore brings it back', async () => {
    const { api, keys } = fixture();
    const t = await ask(
      'Quokkaflux connector drops frames',
      'The quokkaflux connector drops frames.',
    );
    assert.equal(await searchFinds('quokkaflux', t.id, true), true);
    const noReason = await api.call('POST', `/topics/${t.id}/delete`, {
      key: keys.owner,
      body: {},
    });
    assert.equal(noReason.status, 422);
    const deleted = await api.call('POST', `/topics/${t.id}/delete`, {
      key: keys.owner,
      body: { reason: 'Spam link farm' },
    });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal((await api.call('GET', `/topics/${t.id}`, { key: keys.reader })).status, 404);
    const seen = await api.call('GET', `/topics/${t.id}`, { key: keys.owner });
    assert.equal(seen.status, 200);
    assert.equal(seen.json.topic.deleted.reason, 'Spam link farm');
    assert.equal(await searchFinds('quokkaflux', t.id, false), false);
    const listed = await api.call('GET', '/topics?limit=50', { key: keys.reader });
    assert.ok(!listed.json.topics.some((x: { id: string }) => x.id === t.id));
    await api.call('POST', `/topics/${t.id}/restore`, { key: keys.owner, body: {} });
    assert.equal((await api.call('GET', `/topics/${t.id}`, { key: keys.reader })).status, 200);
    assert.equal(await searchFinds('quokkaflux', t.id, true), true);
  });

  test('moderation: a deleted reply is hidden from agents and search, shown to moderators; restored', async () => {
    const { api, keys } = fixture();
    const t = await ask('Exporter crashes on empty batch');
    const r = await api.call('POST', `/topics/${t.id}/posts`, {
      key: keys.writer,
      body: { body: 'Try the zyzzogram flag on the exporter.' },
    });
    const post = r.json.post.id as string;
    assert.equal(await searchFinds('zyzzogram', t.id, true), true);
    const del = await api.call('POST', `/posts/${post}/delete`, {
      key: keys.owner,
      body: { reason: 'Unsafe advice' },
    });
    assert.equal(del.status, 200, del.text);
    const asAgent = await api.call('GET', `/topics/${t.id}`, { key: keys.reader });
    assert.ok(!asAgent.json.posts.some((p: { id: string }) => p.id === post));
    const asMod = await api.call('GET', `/topics/${t.id}`, { key: keys.owner });
    const shown = asMod.json.posts.find((p: { id: string }) => p.id === post);
    assert.equal(shown.deleted.reason, 'Unsafe advice');
    assert.equal(await searchFinds('zyzzogram', t.id, false), false);
    await api.call('POST', `/posts/${post}/restore`, { key: keys.owner, body: {} });
    assert.equal(await searchFinds('zyzzogram', t.id, true), true);
  });

  test('moderation: lock, pin, move, tags and merge; every action is in the moderation log', async () => {
    const { api, keys, h, acme } = fixture();
    const owner = { key: keys.owner };
    const t = await ask('Scheduler skips the first run');
    const locked = await api.call('POST', `/topics/${t.id}/lock`, { ...owner, body: {} });
    assert.equal(locked.json.topic.locked, true);
    assert.match((await reply(t.id)).json.detail, /locked/);
    await api.call('POST', `/topics/${t.id}/unlock`, { ...owner, body: {} });
    await api.call('POST', `/topics/${t.id}/pin`, { ...owner, body: {} });
    const list = await api.call('GET', '/topics', { key: keys.reader });
    assert.equal(list.json.topics[0].id, t.id, 'a pinned topic is listed first');
    await api.call('POST', `/topics/${t.id}/unpin`, { ...owner, body: {} });
    await h.services.categories.create(systemActor('test'), acme, {
      slug: 'scheduling',
      name: 'Scheduling',
    });
    const moved = await api.call('POST', `/topics/${t.id}/move`, {
      ...owner,
      body: { category: 'scheduling', reason: 'Belongs there' },
    });
    assert.equal(moved.json.topic.category.slug, 'scheduling');
    const tagged = await api.call('POST', `/topics/${t.id}/tags`, {
      ...owner,
      body: { tags: ['cron', 'scheduler'] },
    });
    assert.deepEqual(tagged.json.topic.tags, ['cron', 'scheduler']);
    const other = await ask('Scheduler misses a run at start');
    const merged = await api.call('POST', `/topics/${other.id}/merge`, {
      ...owner,
      body: { into: t.id, reason: 'Same bug' },
    });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.json.topic.merged_into, t.id);
    const target = await api.call('GET', `/topics/${t.id}`, { key: keys.reader });
    assert.equal(target.json.posts.length, 2, "the merged topic's question is a reply now");

    const log = await api.call('GET', '/moderation-log?limit=3', owner);
    assert.equal(log.status, 200, log.text);
    assert.deepEqual(
      log.json.entries.map((e: { action: string }) => e.action),
      ['merge', 'tags', 'move'],
    );
    assert.equal(log.json.entries[0].reason, 'Same bug');
    assert.equal(log.json.entries[0].by.name.length > 0, true);
    assert.ok(log.json.next_cursor);
    const next = await api.call(
      'GET',
      `/moderation-log?limit=3&cursor=${encodeURIComponent(log.json.next_cursor)}`,
      owner,
    );
    assert.deepEqual(
      next.json.entries.map((e: { action: string }) => e.action),
      ['unpin', 'pin', 'unlock'],
    );
    assert.equal((await api.call('GET', '/moderation-log', { key: keys.reader })).status, 403);
  });

  test('moderation: the MCP moderation toolset closes and marks duplicates for an agent with topic:moderate', async () => {
    const { h, acme, keys } = fixture();
    const key = (
      await h.services.agents.create(systemActor('test'), acme, {
        name: `moderator-bot-${n}`,
        scopes: ['topic:moderate'],
      })
    ).key;
    const mcp = async (k: string, method: string, params: object) => {
      const res = await fetch(h.hostUrl('acme.localhost', '/api/mcp'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${k}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return (await res.json()).result;
    };
    // The journey set acme's MCP configuration: turn the moderation toolset on (again).
    const system = systemActor('test');
    const config = await h.services.mcpConfig.get(system, acme);
    await h.services.mcpConfig.set(system, acme, { ...config, toolsets: ['moderation'] });
    const deadline = Date.now() + 5000;
    let tools: string[] = [];
    while (!tools.includes('mark_duplicate') && Date.now() < deadline)
      tools = (await mcp(key, 'tools/list', {})).tools.map((t: { name: string }) => t.name);
    assert.ok(tools.includes('close_topic') && tools.includes('mark_duplicate'));
    const original = await ask('Agent cannot read private category');
    const dup = await ask('Private category is invisible to the agent');
    const closed = await mcp(key, 'tools/call', {
      name: 'close_topic',
      arguments: { topic: original.id },
    });
    assert.equal(closed.isError, false, JSON.stringify(closed));
    assert.equal(closed.structuredContent.topic.status, 'closed');
    await mcp(key, 'tools/call', { name: 'reopen_topic', arguments: { topic: original.id } });
    const marked = await mcp(key, 'tools/call', {
      name: 'mark_duplicate',
      arguments: { topic: dup.id, of: original.id, reason: 'asked before' },
    });
    assert.equal(marked.isError, false, JSON.stringify(marked));
    const read = await mcp(keys.reader, 'tools/call', {
      name: 'get_topic',
      arguments: { topic: dup.id },
    });
    assert.equal(read.structuredContent.topic.duplicate_of, original.id);
    assert.equal(read.structuredContent.duplicate_of.id, original.id);
    const refused = await mcp(keys.writer, 'tools/call', {
      name: 'close_topic',
      arguments: { topic: original.id },
    });
    assert.equal(refused.isError, true);
  });
}
