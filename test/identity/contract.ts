// Identity, keys, approvals, idempotency and audit against a real engine: sqlite.test.ts and
// postgres.test.ts run this suite once per adapter (like test/store/contract.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config/config.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { Community } from '../../src/store/types.ts';
import { UniqueViolation } from '../../src/store/errors.ts';
import type { ContentService } from '../../src/domain/content.ts';
import type { CommunityService } from '../../src/domain/communities.ts';
import { systemActor, type Actor, type AgentActor } from '../../src/domain/actor.ts';
import { DomainError } from '../../src/domain/errors.ts';
import type { ContentEvent } from '../../src/domain/events.ts';
import { createServices, type Services } from '../../src/services.ts';
import { createSearchIndex } from '../../src/search/engine.ts';
import type { OpenedDatabase } from '../../src/store/open.ts';
import { sha256Hex } from '../../src/domain/identity/secrets.ts';

export type StoreFactory = { open: () => Promise<OpenedDatabase>; cleanup?: () => Promise<void> };

const config = loadConfig({ HAMLET_BASE_DOMAIN: 'hamlet.test', HAMLET_PUBLIC_SCHEME: 'https' });
const system = systemActor('test');

function rejectsWith(code: string, message?: string | RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof DomainError, `expected DomainError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (typeof message === 'string') assert.equal(err.message, message);
    else if (message) assert.match(err.message, message);
    return true;
  };
}

export function defineIdentityContract(engine: string, factory: StoreFactory): void {
  describe(`identity contract (${engine})`, () => {
    let store: Store;
    let content: ContentService;
    let communities: CommunityService;
    let ids: Services;
    let nowMs = Date.parse('2026-03-01T12:00:00.000Z');
    const clock = () => new Date(nowMs);
    const events: ContentEvent[] = [];

    before(async () => {
      const opened = await factory.open();
      store = opened.store;
      ids = createServices({
        store,
        searchIndex: createSearchIndex(opened.db, opened.dialect),
        config,
        clock,
      });
      ({ content, communities } = ids);
      ids.events.subscribe((e) => events.push(e));
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    async function community(): Promise<Community> {
      const slug = `c-${randomBytes(4).toString('hex')}`;
      await communities.create(system, { slug, name: slug });
      const c = await communities.require(system, slug);
      await ids.categories.create(system, c, { name: 'Support' });
      await ids.categories.create(system, c, { name: 'Docs', kind: 'knowledge_base' });
      return c;
    }

    async function agent(
      c: Community,
      scopes: string[],
      trusted = false,
    ): Promise<{ actor: AgentActor; key: string }> {
      const created = await ids.agents.create(system, c, {
        name: `bot-${randomBytes(3).toString('hex')}`,
        scopes: scopes as never,
        trusted,
      });
      return { actor: await ids.auth.authenticateAgentKey(c.id, created.key), key: created.key };
    }

    const question = (title = 'How do I rotate keys?') => ({
      category: 'support',
      title,
      body: 'Asking for a friend.',
    });

    async function topicCount(c: Community): Promise<number> {
      return (await store.community(c.id).topics.list({ sort: 'latest', limit: 100 })).items.length;
    }

    test('store: credentials, sessions, memberships, keys and grants round-trip, scoped by community', async () => {
      const a = await community();
      const b = await community();
      const p = await store.people.create({
        displayName: 'Ada',
        email: `ada-${randomBytes(3).toString('hex')}@x.org`,
      });
      const creds = store.identity.credentials;
      await creds.setPasswordHash(p.id, 'h1');
      await creds.setPasswordHash(p.id, 'h2');
      assert.equal(await creds.getPasswordHash(p.id), 'h2');

      const s = await creds.createSession({
        personId: p.id,
        tokenHash: 'th-' + p.id,
        expiresAt: '2030-01-01T00:00:00Z',
      });
      assert.equal((await creds.findSessionByHash('th-' + p.id))?.id, s.id);
      assert.equal(await creds.revokeSession('th-' + p.id), true);
      assert.equal(await creds.revokeSession('th-' + p.id), false);
      assert.ok((await creds.findSessionByHash('th-' + p.id))?.revokedAt);

      await store.community(a.id).access.members.set(p.id, 'member');
      await store.community(a.id).access.members.set(p.id, 'moderator');
      assert.equal((await store.community(a.id).access.members.get(p.id))?.role, 'moderator');
      assert.equal(await store.community(b.id).access.members.get(p.id), undefined);
      assert.deepEqual(
        (await creds.membershipsOf(p.id)).map((m) => [m.communityId, m.role]),
        [[a.id, 'moderator']],
      );

      const bot = await store.community(a.id).agents.create({ name: 'grant-bot' });
      assert.deepEqual(await store.community(a.id).access.agents.getGrant(bot.id), {
        agentId: bot.id,
        scopes: [],
        trusted: false,
      });
      await store
        .community(a.id)
        .access.agents.setGrant(bot.id, { scopes: ['topic:create', 'post:create'], trusted: true });
      assert.deepEqual(await store.community(a.id).access.agents.getGrant(bot.id), {
        agentId: bot.id,
        scopes: ['topic:create', 'post:create'],
        trusted: true,
      });
      assert.equal(await store.community(b.id).access.agents.getGrant(bot.id), undefined);
      assert.equal(
        await store.community(b.id).access.agents.setGrant(bot.id, { scopes: [], trusted: false }),
        false,
      );

      const hash = sha256Hex(`k-${bot.id}`);
      const key = await store.community(a.id).access.agents.createKey({
        agentId: bot.id,
        prefix: 'hmlt_live_abcd',
        keyHash: hash,
        expiresAt: null,
      });
      await assert.rejects(
        store.community(a.id).access.agents.createKey({
          agentId: bot.id,
          prefix: 'x',
          keyHash: hash,
          expiresAt: null,
        }),
        UniqueViolation,
      );
      const found = await creds.findAgentKeyByHash(hash);
      assert.equal(found?.communityId, a.id);
      // The key brings its agent's name and grant along (authentication reads nothing else).
      assert.deepEqual(found?.agent, {
        name: 'grant-bot',
        scopes: ['topic:create', 'post:create'],
        trusted: true,
      });
      // ...and the sanction on its agent, in its own community only.
      assert.equal(found?.sanction, undefined);
      const sanction = {
        subject: { kind: 'agent' as const, id: bot.id, name: 'grant-bot' },
        mode: 'silenced' as const,
        reason: 'Posting too fast',
        endsAt: '2031-01-01T00:00:00.000Z',
        byName: 'Mo',
        createdAt: '2030-12-01T00:00:00.000Z',
      };
      await store.community(b.id).moderation.setSanction(sanction);
      assert.equal((await creds.findAgentKeyByHash(hash))?.sanction, undefined);
      await store.community(a.id).moderation.setSanction({
        ...sanction,
        subject: { ...sanction.subject, kind: 'person' },
      });
      assert.equal((await creds.findAgentKeyByHash(hash))?.sanction, undefined);
      await store.community(a.id).moderation.setSanction(sanction);
      assert.deepEqual((await creds.findAgentKeyByHash(hash))?.sanction, sanction);
      assert.equal(await store.community(a.id).moderation.clearSanction('agent', bot.id), true);
      assert.equal((await creds.findAgentKeyByHash(hash))?.sanction, undefined);
      assert.deepEqual(await store.community(b.id).access.agents.findKeys(key.id), []);
      assert.equal(await store.community(b.id).access.agents.revokeKey(key.id), false);
      await creds.touchAgentKey(key.id, '2026-01-01T00:00:00.000Z', '2025-12-31T23:59:00.000Z');
      await creds.touchAgentKey(key.id, '2026-01-01T00:00:30.000Z', '2025-12-31T23:59:30.000Z'); // too soon: skipped
      assert.equal((await creds.findAgentKeyByHash(hash))?.lastUsedAt, '2026-01-01T00:00:00.000Z');
      assert.equal(await store.community(a.id).access.agents.revokeKey(key.id), true);
      assert.ok((await store.community(a.id).access.agents.listKeys(bot.id))[0]?.revokedAt);

      await store.community(a.id).access.policies.set('topic.create', 'approval');
      await store.community(a.id).access.policies.set('topic.create', 'auto');
      assert.equal(await store.community(a.id).access.policies.get('topic.create'), 'auto');
      assert.equal(await store.community(b.id).access.policies.get('topic.create'), undefined);

      await store.community(a.id).access.idempotency.insert({
        actor: 'agent:x',
        key: 'k1',
        requestHash: 'r',
        result: { ok: 1 },
      });
      await assert.rejects(
        store
          .community(a.id)
          .access.idempotency.insert({ actor: 'agent:x', key: 'k1', requestHash: 'r', result: {} }),
        UniqueViolation,
      );
      assert.deepEqual(
        (await store.community(a.id).access.idempotency.find('agent:x', 'k1'))?.result,
        { ok: 1 },
      );
      assert.equal(await store.community(b.id).access.idempotency.find('agent:x', 'k1'), undefined);
    });

    test('people: sign-in opens a session whose token is stored hashed; CSRF is bound to it; revoke ends it', async () => {
      const email = `grace-${randomBytes(3).toString('hex')}@example.org`;
      const person = await ids.accounts.createUser(system, {
        email,
        password: 'correct horse battery',
        name: 'Grace',
      });
      await assert.rejects(
        ids.accounts.createUser(system, { email, password: 'correct horse battery' }),
        rejectsWith('conflict'),
      );
      await assert.rejects(
        ids.accounts.signIn({ email, password: 'wrong password!' }),
        rejectsWith('unauthorized', /Wrong e-mail or password/),
      );
      await assert.rejects(
        ids.accounts.signIn({ email: 'nobody@example.org', password: 'whatever12' }),
        rejectsWith('unauthorized', /Wrong e-mail or password/),
      );
      const stored = await store.identity.credentials.getPasswordHash(person.id);
      assert.match(stored!, /^scrypt\$16384\$8\$1\$/);
      assert.ok(!stored!.includes('correct horse'));

      const session = await ids.accounts.signIn({
        email: email.toUpperCase(),
        password: 'correct horse battery',
      });
      assert.equal(
        await store.identity.credentials.findSessionByHash(session.token),
        undefined,
        'the raw token is not stored',
      );
      const actor = await ids.accounts.resolveWebSession(session.token);
      assert.equal(actor?.kind === 'person' && actor.personId, person.id);
      assert.equal(ids.accounts.verifyCsrf(session.token, session.csrfToken), true);
      assert.equal(ids.accounts.verifyCsrf(session.token, 'forged'), false);
      const other = await ids.accounts.createWebSession(person.id);
      assert.equal(ids.accounts.verifyCsrf(session.token, other.csrfToken), false);
      assert.equal(await ids.accounts.revokeWebSession(session.token), true);
      assert.equal(await ids.accounts.resolveWebSession(session.token), undefined);
      nowMs += 31 * 86_400_000;
      assert.equal(
        await ids.accounts.resolveWebSession(other.token),
        undefined,
        'expired after 30 days',
      );
    });

    test('store: lockHolders lists the holders of roles in one community and makes concurrent changes queue', async () => {
      const a = await community();
      const b = await community();
      const person = (n: string) =>
        store.people.create({
          displayName: n,
          email: `${n}-${randomBytes(3).toString('hex')}@x.org`,
        });
      const [o1, o2, ad, mo] = [
        await person('o1'),
        await person('o2'),
        await person('ad'),
        await person('mo'),
      ];
      const members = store.community(a.id).access.members;
      await members.set(o1.id, 'owner');
      await members.set(o2.id, 'owner');
      await members.set(ad.id, 'admin');
      await members.set(mo.id, 'moderator');
      await store.community(b.id).access.members.set(mo.id, 'owner');
      const held = await members.lockHolders(['owner', 'admin']);
      assert.deepEqual(
        held.map((m) => [m.personId, m.role]),
        [
          [o1.id, 'owner'],
          [o2.id, 'owner'],
          [ad.id, 'admin'],
        ].sort((x, y) => (x[0]! < y[0]! ? -1 : 1)),
      );
      assert.deepEqual(await members.lockHolders([]), []);
      // Two transactions each demote one owner while another owner remains: one of them waits for
      // the other and then sees a single owner, so exactly one demotion happens.
      const demote = (who: string) =>
        store.transaction(async (tx) => {
          const m = tx.community(a.id).access.members;
          const owners = await m.lockHolders(['owner']);
          if (owners.length < 2) return false;
          await m.set(who, 'member');
          return true;
        });
      const done = await Promise.all([demote(o1.id), demote(o2.id)]);
      assert.equal(
        done.filter(Boolean).length,
        1,
        `both demoted: ${JSON.stringify(await members.list())}`,
      );
      assert.equal((await members.lockHolders(['owner'])).length, 1);
    });

    test('memberships: roles per community; members read a private community, others do not', async () => {
      const slug = `p-${randomBytes(4).toString('hex')}`;
      await communities.create(system, { slug, name: 'Private', visibility: 'private' });
      const priv = await communities.require(system, slug);
      const email = `m-${randomBytes(3).toString('hex')}@example.org`;
      await ids.accounts.createUser(system, { email, password: 'long enough pw' });
      const session = await ids.accounts.signIn({ email, password: 'long enough pw' });
      const outsider = (await ids.accounts.resolveWebSession(session.token))!;
      await assert.rejects(content.listCategories(outsider, priv), rejectsWith('not_found'));
      await assert.rejects(
        ids.accounts.addMember(outsider, priv, { email, role: 'admin' }),
        rejectsWith('forbidden'),
      );
      await ids.accounts.addMember(system, priv, { email, role: 'member' });
      const member = (await ids.accounts.resolveWebSession(session.token))!;
      assert.deepEqual(await content.listCategories(member, priv), []);
      await assert.rejects(
        ids.agents.create(member, priv, { name: 'x' }),
        rejectsWith('forbidden', /Only an administrator/),
      );
    });

    test('scopes: a refusal says exactly what to do; reading needs no scope', async () => {
      const c = await community();
      const { actor } = await agent(c, ['post:create']);
      await assert.rejects(
        ids.writes.execute(actor, c, 'topic.create', question()),
        rejectsWith(
          'forbidden',
          'This agent key is not scoped for "topic:create". Add the scope to the agent to allow it.',
        ),
      );
      await assert.rejects(
        ids.writes.execute(actor, c, 'solution.mark', { topic: 'x', post: 'y' }),
        rejectsWith(
          'forbidden',
          'This agent key is not scoped for "solution:mark". Add the scope to the agent to allow it.',
        ),
      );
      assert.equal(await topicCount(c), 0);
      assert.ok(Array.isArray(await content.listCategories(actor, c)));
      await assert.rejects(
        ids.agents.create(system, c, { name: 'bad', scopes: ['topic:delete' as never] }),
        rejectsWith('invalid_argument'),
      );
    });

    test('agent keys: missing, malformed, unknown, other community, revoked and expired are refused precisely', async () => {
      const a = await community();
      const b = await community();
      const created = await ids.agents.create(system, a, {
        name: 'worker',
        scopes: ['topic:create'],
      });
      assert.match(created.key, /^hmlt_live_[0-9A-Za-z]{40}$/);
      assert.equal(created.keyRecord.prefix, created.key.slice(0, 14));

      await assert.rejects(
        ids.auth.authenticateAgentKey(a.id, undefined),
        rejectsWith(
          'unauthorized',
          `This request needs an agent key of community "${a.slug}": send Authorization: Bearer hmlt_live_…. An admin of the community mints one with \`hamlet agent create\`.`,
        ),
      );
      await assert.rejects(
        ids.auth.authenticateAgentKey(a.id, 'hmlt_live_short'),
        rejectsWith('unauthorized', /not a Hamlet agent key/),
      );
      await assert.rejects(
        ids.auth.authenticateAgentKey(a.id, `hmlt_live_${'x'.repeat(40)}`),
        rejectsWith('unauthorized', /not known/),
      );
      await assert.rejects(
        ids.auth.authenticateAgentKey(b.id, created.key),
        rejectsWith(
          'unauthorized',
          new RegExp(`belongs to another community \\("${a.slug}"\\), not "${b.slug}"`),
        ),
      );
      const ok = await ids.auth.authenticateAgentKey(a.id, created.key);
      assert.deepEqual(
        [ok.agentId, ok.name, ok.scopes, ok.trusted, ok.keyPrefix],
        [created.agent.id, 'worker', ['topic:create'], false, created.keyRecord.prefix],
      );
      const listed = await ids.agents.listKeys(system, a, { agent: created.agent.id });
      assert.equal(listed[0]?.lastUsedAt, new Date(nowMs).toISOString());

      const second = await ids.agents.mintKey(system, a, {
        agent: created.agent.id,
        expiresInDays: 1,
      });
      await ids.auth.authenticateAgentKey(a.id, second.key);
      nowMs += 2 * 86_400_000;
      await assert.rejects(
        ids.auth.authenticateAgentKey(a.id, second.key),
        rejectsWith('unauthorized', /expired on \d{4}-\d\d-\d\d/),
      );
      await ids.auth.authenticateAgentKey(a.id, created.key); // no expiry

      await ids.agents.revokeKey(system, a, { key: created.key });
      await assert.rejects(
        ids.auth.authenticateAgentKey(a.id, created.key),
        rejectsWith('unauthorized', /was revoked on/),
      );
      await assert.rejects(
        ids.agents.revokeKey(system, a, { key: created.keyRecord.prefix }),
        rejectsWith('not_found'),
      );

      const userEmail = `u-${randomBytes(3).toString('hex')}@example.org`;
      await ids.accounts.createUser(system, { email: userEmail, password: 'long enough pw' });
      const userKey = await ids.accounts.mintUserKey(system, { email: userEmail });
      assert.match(userKey.key, /^hmlt_u_[0-9A-Za-z]{40}$/);
      await assert.rejects(
        ids.auth.authenticateAgentKey(a.id, userKey.key),
        rejectsWith('unauthorized', /user key/),
      );
      const person = await ids.auth.authenticateUserKey(userKey.key);
      assert.equal(person.keyPrefix, userKey.record.prefix);
      await assert.rejects(
        ids.auth.authenticateUserKey(undefined),
        rejectsWith('unauthorized', /hmlt_u_/),
      );
      await ids.accounts.revokeUserKey(system, { email: userEmail, key: userKey.record.prefix });
      await assert.rejects(
        ids.auth.authenticateUserKey(userKey.key),
        rejectsWith('unauthorized', /revoked/),
      );
    });

    test('approvals: a queued write returns pending_approval; concurrent approves apply it exactly once', async () => {
      const c = await community();
      await ids.approvals.setPolicy(system, c, { kind: 'topic.create', mode: 'approval' });
      const { actor: writer } = await agent(c, ['topic:create']);
      const queued = await ids.writes.execute(
        writer,
        c,
        'topic.create',
        question('Queued question'),
      );
      assert.equal(queued.status, 'pending_approval');
      assert.ok(
        queued.status === 'pending_approval' &&
          queued.approval_id &&
          /get_approval/.test(queued.message),
      );
      const approvalId = queued.status === 'pending_approval' ? queued.approval_id : '';
      assert.equal(await topicCount(c), 0);
      assert.ok(events.some((e) => e.type === 'approval.requested' && e.approvalId === approvalId));

      const seen = await ids.approvals.get(writer, c, approvalId);
      assert.equal(seen.status, 'pending');
      const { actor: stranger } = await agent(c, []);
      await assert.rejects(ids.approvals.get(stranger, c, approvalId), rejectsWith('not_found'));
      await assert.rejects(
        ids.approvals.approve(writer, c, approvalId),
        rejectsWith('forbidden', /approval:decide/),
      );

      const { actor: decider } = await agent(c, ['approval:decide']);
      const modEmail = `mod-${randomBytes(3).toString('hex')}@example.org`;
      await ids.accounts.createUser(system, { email: modEmail, password: 'long enough pw' });
      await ids.accounts.addMember(system, c, { email: modEmail, role: 'moderator' });
      const moderator = (await ids.accounts.resolveWebSession(
        (await ids.accounts.signIn({ email: modEmail, password: 'long enough pw' })).token,
      ))!;

      const deciders: Actor[] = [decider, moderator, system, decider, moderator, system];
      const outcomes = await Promise.allSettled(
        deciders.map((d) => ids.approvals.approve(d, c, approvalId)),
      );
      const applied = outcomes.filter((o) => o.status === 'fulfilled');
      assert.equal(
        applied.length,
        1,
        JSON.stringify(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))),
      );
      for (const o of outcomes)
        if (o.status === 'rejected')
          assert.ok(
            o.reason instanceof DomainError && o.reason.code === 'conflict',
            String(o.reason),
          );
      assert.equal(await topicCount(c), 1);

      const after = await ids.approvals.get(writer, c, approvalId);
      assert.equal(after.status, 'applied');
      assert.ok(after.decided_by);
      const result = after.result as {
        topic: { id: string; url: string; author: { kind: string } };
      };
      assert.match(result.topic.url, /^https:\/\/.+\/t\//);
      assert.equal(
        (await store.community(c.id).topics.getById(result.topic.id))?.author.id,
        writer.agentId,
        'written as the submitter',
      );
      assert.ok(
        events.some(
          (e) =>
            e.type === 'approval.decided' && e.approvalId === approvalId && e.status === 'applied',
        ),
      );
      assert.ok(events.some((e) => e.type === 'topic.created' && e.topicId === result.topic.id));
    });

    test('approvals: a queued write of a person who has left a private community fails when approved', async () => {
      const slug = `p-${randomBytes(4).toString('hex')}`;
      await communities.create(system, { slug, name: slug, visibility: 'private' });
      const c = await communities.require(system, slug);
      await ids.categories.create(system, c, { name: 'Support' });
      await ids.approvals.setPolicy(system, c, { kind: 'topic.create', mode: 'approval' });
      const email = `leaver-${randomBytes(3).toString('hex')}@example.org`;
      await ids.accounts.createUser(system, { email, password: 'long enough pw' });
      await ids.accounts.addMember(system, c, { email, role: 'member' });
      const person = (await ids.accounts.resolveWebSession(
        (await ids.accounts.signIn({ email, password: 'long enough pw' })).token,
      ))!;
      const queued = await ids.writes.execute(person, c, 'topic.create', question('Before I go'));
      assert.equal(queued.status, 'pending_approval');
      const approvalId = queued.status === 'pending_approval' ? queued.approval_id : '';
      await ids.accounts.removeMember(system, c, { email });
      const decided = await ids.approvals.approve(system, c, approvalId);
      assert.equal(decided.status, 'failed', 'the decision is recorded, the write is not applied');
      assert.equal(await topicCount(c), 0, 'nothing was written');
    });

    test('approvals: reject records the reason; trusted agents and moderators bypass the queue', async () => {
      const c = await community();
      await ids.approvals.setPolicy(system, c, { kind: 'topic.create', mode: 'approval' });
      assert.equal((await ids.approvals.getPolicies(system, c))['topic.create'], 'approval');
      const { actor: writer } = await agent(c, ['topic:create']);
      const queued = await ids.writes.execute(
        writer,
        c,
        'topic.create',
        question('Spam? Cheap watches'),
      );
      const id = queued.status === 'pending_approval' ? queued.approval_id : '';
      await assert.rejects(
        ids.approvals.reject(system, c, id, '  '),
        rejectsWith('invalid_argument'),
      );
      const rejected = await ids.approvals.reject(system, c, id, 'Off topic for this community.');
      assert.deepEqual(
        [rejected.status, rejected.reason],
        ['rejected', 'Off topic for this community.'],
      );
      assert.equal((await ids.approvals.get(writer, c, id)).status, 'rejected');
      await assert.rejects(
        ids.approvals.approve(system, c, id),
        rejectsWith('conflict', /already decided \(status: rejected/),
      );
      assert.equal(await topicCount(c), 0);
      assert.deepEqual(
        (await ids.approvals.list(system, c, { status: 'rejected' })).approvals.map(
          (a) => a.approval_id,
        ),
        [id],
      );

      const { actor: trusted } = await agent(c, ['topic:create'], true);
      const direct = await ids.writes.execute(
        trusted,
        c,
        'topic.create',
        question('Trusted question'),
      );
      assert.equal(direct.status, 'applied');
      assert.equal(await topicCount(c), 1);

      await assert.rejects(
        ids.writes.execute(writer, c, 'topic.create', { ...question(), category: 'nope' }),
        rejectsWith('not_found', /No category "nope"/),
      );
      await assert.rejects(
        ids.writes.execute(writer, c, 'topic.create', {
          category: 'support',
          title: 'x',
          body: '',
        }),
        rejectsWith('invalid_argument'),
      );
    });

    test('idempotency: a retry returns the first result and writes once; another payload under the key is a conflict', async () => {
      const c = await community();
      const { actor } = await agent(c, ['topic:create', 'post:create']);
      const first = await ids.writes.execute(actor, c, 'topic.create', question('Once only'), {
        idempotencyKey: 'request-0001',
      });
      const again = await ids.writes.execute(
        actor,
        c,
        'topic.create',
        { body: 'Asking for a friend.', title: 'Once only', category: 'support' },
        { idempotencyKey: 'request-0001' },
      );
      assert.deepEqual(again, first);
      assert.equal(await topicCount(c), 1);
      await assert.rejects(
        ids.writes.execute(actor, c, 'topic.create', question('Something else'), {
          idempotencyKey: 'request-0001',
        }),
        rejectsWith(
          'conflict',
          /idempotency key "request-0001" was already used for a different request/,
        ),
      );
      // Same key, another caller: independent.
      const { actor: other } = await agent(c, ['topic:create']);
      await ids.writes.execute(other, c, 'topic.create', question('Once only'), {
        idempotencyKey: 'request-0001',
      });
      assert.equal(await topicCount(c), 2);

      // Concurrent retries of one request: one topic.
      const burst = await Promise.all(
        Array.from({ length: 5 }, () =>
          ids.writes.execute(actor, c, 'topic.create', question('Burst of retries'), {
            idempotencyKey: 'req-burst',
          }),
        ),
      );
      assert.equal(new Set(burst.map((r) => JSON.stringify(r))).size, 1);
      assert.equal(await topicCount(c), 3);

      // A retry of a queued write returns the same approval id and queues nothing more.
      await ids.approvals.setPolicy(system, c, { kind: 'post.create', mode: 'approval' });
      const topicId = (first as { result: { topic: { id: string } } }).result.topic.id;
      const q1 = await ids.writes.execute(
        actor,
        c,
        'post.create',
        { topic: topicId, body: 'Try rotating.' },
        { idempotencyKey: 'reply-0001' },
      );
      const q2 = await ids.writes.execute(
        actor,
        c,
        'post.create',
        { topic: topicId, body: 'Try rotating.' },
        { idempotencyKey: 'reply-0001' },
      );
      assert.equal(q1.status, 'pending_approval');
      assert.deepEqual(q2, q1);
      assert.equal(
        (await ids.approvals.list(system, c, { status: 'pending' })).approvals.length,
        1,
      );
    });

    test('audit: every write and decision is logged with actor and key prefix, never the key; paged newest first', async () => {
      const c = await community();
      const { actor, key } = await agent(c, ['topic:create']);
      const written = await ids.writes.execute(
        actor,
        c,
        'topic.create',
        question('Audited question'),
      );
      await assert.rejects(
        ids.writes.execute(actor, c, 'post.create', { topic: 'x', body: 'y' }),
        rejectsWith('forbidden'),
      );
      await ids.approvals.setPolicy(system, c, { kind: 'topic.create', mode: 'approval' });
      const queued = await ids.writes.execute(actor, c, 'topic.create', question('Audited 2'));
      await ids.audit.call(
        actor,
        { communityId: c.id, action: 'tool:search_community' },
        { ok: true },
      );

      const all: Awaited<ReturnType<typeof ids.audit.list>>['entries'] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof ids.audit.list>> = await ids.audit.list(system, c, {
          cursor,
          limit: 2,
        });
        all.push(...page.entries);
        cursor = page.nextCursor;
      } while (cursor);
      const rows = all.map((e) => [e.action, e.outcome, e.errorCode]);
      assert.deepEqual(rows.reverse(), [
        // The fixture's community, categories and agent (community(), agent()): written by the
        // operator (the system), audited like every write.
        ['community.create', 'ok', null],
        ['category.create', 'ok', null],
        ['category.create', 'ok', null],
        ['agent.create', 'ok', null],
        ['topic.create', 'ok', null],
        ['post.create', 'error', 'forbidden'],
        ['policy.set', 'ok', null],
        ['topic.create', 'pending', null],
        ['tool:search_community', 'ok', null],
      ]);
      const mine = all.filter((e) => e.actorKind === 'agent');
      assert.ok(mine.every((e) => e.actorId === actor.agentId && e.keyPrefix === actor.keyPrefix));
      const firstWrite = all.find((e) => e.action === 'topic.create' && e.outcome === 'ok')!;
      assert.equal(
        firstWrite.targets.topic_id,
        (written as { result: { topic: { id: string } } }).result.topic.id,
      );
      assert.equal(
        all.find((e) => e.outcome === 'pending')?.targets.approval_id,
        queued.status === 'pending_approval' ? queued.approval_id : '',
      );
      assert.ok(!JSON.stringify(all).includes(key), 'the key never reaches the audit log');
      assert.ok(!JSON.stringify(all).includes(key.slice(14)), 'nor its secret part');
      await assert.rejects(ids.audit.list(actor, c), rejectsWith('forbidden'));
    });
  });
}
