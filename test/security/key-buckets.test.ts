// Rate-limit buckets belong to keys, not to their display prefix: two keys of different
// communities whose 14-character prefixes collide (4 random characters: about one pair in 5,000
// mints) keep separate budgets; exhausting one leaves the other whole. On both engines (PostgreSQL
// counts in the shared limiter).
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import {
  DISPLAY_PREFIX_LENGTH,
  randomBase62,
  sha256Hex,
} from '../../src/domain/identity/secrets.ts';
import type { TestHamlet } from '../app/helpers.ts';
import { startTestHamlet } from '../app/helpers.ts';
import { eachEngine } from './engines.ts';
import { callTool } from './mcp.ts';

const LIMIT = 5;

/** An agent key of `slug` whose display prefix is `prefix` (as a colliding mint would give). */
async function keyWithPrefix(h: TestHamlet, slug: string, prefix: string): Promise<string> {
  const community = (await h.store.communities.create({ slug, name: slug, visibility: 'public' }))!;
  const { agent } = await h.services.agents.create(systemActor('test'), community, {
    name: `${slug}-bot`,
    scopes: [],
  });
  const key = prefix + randomBase62(40);
  await h.store.community(community.id).access.agents.createKey({
    agentId: agent.id,
    prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
    keyHash: sha256Hex(key),
    expiresAt: null,
  });
  return key;
}

eachEngine('two keys whose display prefixes collide keep separate budgets', async (engine) => {
  const h = await startTestHamlet({
    ...engine.env,
    HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: String(LIMIT),
    HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '1000',
  });
  try {
    const prefix = `hmlt_live_${randomBase62(4)}`;
    const acme = await keyWithPrefix(h, 'acme', prefix);
    const other = await keyWithPrefix(h, 'other', prefix);
    assert.equal(acme.slice(0, DISPLAY_PREFIX_LENGTH), other.slice(0, DISPLAY_PREFIX_LENGTH));
    const call = async (slug: string, key: string) =>
      (await callTool(h.hostUrl(`${slug}.localhost`, '/api/mcp'), 'list_categories', {}, key))
        .structured?.code ?? 'ok';

    const acmeCalls = [];
    for (let i = 0; i < LIMIT + 1; i++) acmeCalls.push(await call('acme', acme));
    assert.deepEqual(
      acmeCalls,
      [...Array(LIMIT).fill('ok'), 'rate_limited'],
      "acme's key spends its own budget",
    );
    const otherCalls = [];
    for (let i = 0; i < LIMIT + 1; i++) otherCalls.push(await call('other', other));
    assert.deepEqual(
      otherCalls,
      [...Array(LIMIT).fill('ok'), 'rate_limited'],
      'the colliding key still has its whole budget',
    );
  } finally {
    await h.stop();
  }
});
