import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCommunityHost, resolveHost } from '../../src/domain/tenancy.ts';
import { openStore } from '../../src/store/open.ts';

test('resolveHost maps the apex to the network and a subdomain to its community', () => {
  assert.deepEqual(resolveHost('localhost:8787', 'localhost'), { kind: 'network' });
  assert.deepEqual(resolveHost('LOCALHOST', 'localhost'), { kind: 'network' });
  assert.deepEqual(resolveHost('www.hamlet.so', 'hamlet.so'), { kind: 'network' });
  assert.deepEqual(resolveHost('acme.localhost:8787', 'localhost'), {
    kind: 'community',
    slug: 'acme',
  });
  assert.deepEqual(resolveHost('ACME.Hamlet.So.', 'hamlet.so'), {
    kind: 'community',
    slug: 'acme',
  });
  assert.deepEqual(resolveHost('my-team-2.hamlet.so:443', 'hamlet.so'), {
    kind: 'community',
    slug: 'my-team-2',
  });
});

test('resolveHost answers unknown for anything that is not ours or not a valid slug', () => {
  for (const host of [
    undefined,
    '',
    'example.com',
    'evil-localhost',
    'a.localhost',
    'a.b.localhost',
    '-x.localhost',
    'x-.localhost',
    'under_score.localhost',
    `${'a'.repeat(64)}.localhost`,
    'acme.localhost:notaport',
    '[::1',
    '[acme]:8787',
    '999.1.1.1',
    'acme..localhost',
    'acme.localhost.evil.com',
  ]) {
    assert.deepEqual(resolveHost(host, 'localhost'), { kind: 'unknown' }, String(host));
  }
  assert.deepEqual(resolveHost(`${'a'.repeat(63)}.localhost`, 'localhost'), {
    kind: 'community',
    slug: 'a'.repeat(63),
  });
});

test('an IP literal host, with or without a port, is the apex (the network)', () => {
  for (const host of [
    '127.0.0.1',
    '127.0.0.1:8787',
    '10.0.0.7:80',
    '[::1]',
    '[::1]:8787',
    '[fe80::1]:1',
  ])
    assert.deepEqual(resolveHost(host, 'localhost'), { kind: 'network' }, host);
  assert.deepEqual(resolveHost('127.0.0.1:8787', 'hamlet.so'), { kind: 'network' });
});

test('resolveCommunityHost finds existing communities by subdomain or custom domain only', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    const acme = await store.communities.create({
      slug: 'acme',
      name: 'Acme',
      visibility: 'public',
      customDomain: 'forum.acme.test',
    });
    const bySub = await resolveCommunityHost(store, 'acme.localhost:8787', 'localhost');
    assert.equal(bySub.kind === 'community' && bySub.community.id, acme.id);
    const byDomain = await resolveCommunityHost(store, 'Forum.Acme.Test', 'localhost');
    assert.equal(byDomain.kind === 'community' && byDomain.community.id, acme.id);
    assert.deepEqual(await resolveCommunityHost(store, 'ghost.localhost', 'localhost'), {
      kind: 'unknown',
    });
    assert.deepEqual(await resolveCommunityHost(store, 'other.test', 'localhost'), {
      kind: 'unknown',
    });
    assert.deepEqual(await resolveCommunityHost(store, 'localhost', 'localhost'), {
      kind: 'network',
    });
  } finally {
    await store.close();
  }
});
