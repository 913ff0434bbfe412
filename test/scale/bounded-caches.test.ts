// Memory per instance is bounded whatever the number of communities: requests that touch many more
// communities and hosts than the per-community caches hold (the host resolver, each community's MCP
// configuration and built server) through the real request path (host form and path form, web
// pages and MCP) leave every cache at or under its limit, and a community pushed out of a cache is
// served as before. The limits are made small here so a few hundred requests fill them; the
// defaults are the same code with larger numbers (bench/network-memory.ts touches 10,000).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { fileHamlet } from '../helpers/in-process.ts';
import { rpc } from '../mcp/http-client.ts';

const LIMITS = { hosts: 30, communities: 12 };
const COMMUNITIES = 60;
const hamlet = fileHamlet(
  { HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000' },
  { cacheLimits: LIMITS },
);

const slugOf = (i: number) => `bounded-${i}`;

test('touching many more communities than the caches hold leaves each cache within its limit', async () => {
  const h = await hamlet();
  for (let i = 0; i < COMMUNITIES; i++)
    await h.services.communities.create(
      systemActor(),
      { slug: slugOf(i), name: `Bounded ${i}`, visibility: 'public' },
      { starter: true },
    );
  const toolsList = async (url: string) =>
    (
      await rpc(
        url,
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
        {
          accept: 'application/json, text/event-stream',
        },
      )
    ).json();
  for (let i = 0; i < COMMUNITIES; i++) {
    const slug = slugOf(i);
    const home = await h.get(slug, '/');
    assert.equal(home.status, 200, `${slug}'s home page`);
    const byHost = await h.mcpCall(slug, undefined, 'tools/list');
    assert.ok(byHost.result?.tools?.length > 0, `${slug}'s tools by its host`);
    const byPath = await toolsList(`http://${h.host(null)}/c/${slug}/api/mcp`);
    assert.ok(byPath.result?.tools?.length > 0, `${slug}'s tools by the path form`);
    const unknown = await h.get(`nowhere-${i}`, '/');
    assert.equal(unknown.status, 404);
  }
  const caches = h.caches();
  for (const [name, { size, max }] of Object.entries(caches))
    assert.ok(size <= max, `${name}: ${size} entries, limit ${max}`);
  assert.equal(caches.hosts!.max, LIMITS.hosts);
  assert.equal(caches.hosts!.size, LIMITS.hosts, 'the host cache was filled, not bypassed');
  assert.equal(caches.mcpSurfaces!.size, LIMITS.communities, 'surfaces were kept, up to the limit');
  assert.equal(caches.mcpConfigs!.size, LIMITS.communities);

  // The first communities were pushed out long ago: they are read again and served as before.
  const first = await h.mcpCall(slugOf(0), undefined, 'tools/list');
  assert.deepEqual(
    first.result.tools.map((t: { name: string }) => t.name),
    (await h.mcpCall(slugOf(COMMUNITIES - 1), undefined, 'tools/list')).result.tools.map(
      (t: { name: string }) => t.name,
    ),
  );
  assert.match((await h.get(slugOf(0), '/')).text, /Bounded 0/);
});

test('the default limits are finite', async () => {
  const { CACHED_COMMUNITIES, CACHED_KEY_CHECKS } = await import('../../src/surfaces/endpoints.ts');
  const { MAX_CACHED_HOSTS } = await import('../../src/http/front-door.ts');
  const { CACHED_SLUGS } = await import('../../src/surfaces/live.ts');
  for (const limit of [CACHED_COMMUNITIES, CACHED_KEY_CHECKS, MAX_CACHED_HOSTS, CACHED_SLUGS])
    assert.ok(Number.isInteger(limit) && limit > 0 && limit <= 10_000, String(limit));
});
