// Roles and memberships, on both engines (issue 20 items 6 and 10): only an owner changes an owner,
// the last owner stays (REST, the CLI's system actor, concurrent demotions), the web asks before a
// person demotes or removes themself or removes a member, and a signed-in person who is no member
// of a public community may ask and reply there (as the network's ask_community does) but writes
// no article, on any face (REST, MCP, web).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { systemActor, type Actor } from '../../src/domain/actor.ts';
import { DEFAULT_MCP_CONFIG } from '../../src/domain/community-mcp.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { scopesForRole } from '../../src/domain/oauth/scopes.ts';
import { createLogger } from '../../src/log.ts';
import { CATALOGUE } from '../../src/operations/catalogue.ts';
import { Pipeline } from '../../src/operations/pipeline.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { Api } from '../rest/fixture.ts';
import { WebClient, visible } from '../web/client.ts';
import { eachEngine } from './engines.ts';
import { callTool } from './mcp.ts';

const PASSWORD = 'correct horse battery';
const system = systemActor('roles-test');

type Person = { email: string; personId: string; key: string; actor: Actor };

async function person(h: TestHamlet, c: Community, email: string, role?: string) {
  const p = await h.services.accounts.createUser(system, { email, password: PASSWORD });
  if (role) await h.services.accounts.addMember(system, c, { email, role });
  const key = (await h.services.accounts.mintUserKey(system, { email })).key;
  const actor: Actor = { kind: 'person', personId: p.id, displayName: p.displayName };
  return { email, personId: p.id, key, actor } satisfies Person;
}

async function roles(h: TestHamlet, c: Community): Promise<Record<string, string>> {
  const members = await h.services.accounts.listMembers(system, c);
  return Object.fromEntries(members.map((m) => [m.email ?? m.personId, m.role]));
}

async function signedIn(h: TestHamlet, email: string): Promise<WebClient> {
  const web = new WebClient(h.hostUrl('acme.localhost', ''));
  await web.get('/signin');
  const home = await web.post('/signin', { email, password: PASSWORD, next: '/' });
  assert.match(home.text, /Signed in as/);
  return web;
}

const enc = encodeURIComponent;

eachEngine('roles: only an owner changes an owner, and the last owner stays', async (engine, t) => {
  const h = await startTestHamlet(
    { ...engine.env, LOG_LEVEL: 'warn', HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000' },
    { demo: true },
  );
  try {
    const acme = (await h.store.communities.getBySlug('acme'))!;
    const api = new Api(`http://127.0.0.1:${h.port}/c/acme`);
    const owner = await person(h, acme, 'owner@x.test', 'owner');
    const admin = await person(h, acme, 'admin@x.test', 'admin');
    const member = await person(h, acme, 'member@x.test', 'member');

    await t.test('an admin can neither demote, remove nor make an owner (REST)', async () => {
      const demote = await api.call('PUT', `/members/${enc(owner.email)}`, {
        key: admin.key,
        body: { role: 'member' },
      });
      assert.equal(demote.status, 403, demote.text);
      assert.match(demote.json.detail, /Only an owner of "acme"/);
      const remove = await api.call('DELETE', `/members/${enc(owner.email)}`, { key: admin.key });
      assert.equal(remove.status, 403, remove.text);
      const promote = await api.call('PUT', `/members/${enc(member.email)}`, {
        key: admin.key,
        body: { role: 'owner' },
      });
      assert.equal(promote.status, 403, promote.text);
      const self = await api.call('PUT', `/members/${enc(admin.email)}`, {
        key: admin.key,
        body: { role: 'owner' },
      });
      assert.equal(self.status, 403, self.text);
      assert.equal((await roles(h, acme))[owner.email], 'owner');
      // Everything below an owner stays theirs to manage.
      const mod = await api.call('PUT', `/members/${enc(member.email)}`, {
        key: admin.key,
        body: { role: 'moderator' },
      });
      assert.equal(mod.status, 200, mod.text);
    });

    await t.test('the sole owner can neither demote nor remove themself', async () => {
      for (const role of ['admin', 'member']) {
        const res = await api.call('PUT', `/members/${enc(owner.email)}`, {
          key: owner.key,
          body: { role },
        });
        assert.equal(res.status, 409, res.text);
        assert.match(res.json.detail, /last owner of "acme".*make another member an owner first/);
      }
      const res = await api.call('DELETE', `/members/${enc(owner.email)}`, { key: owner.key });
      assert.equal(res.status, 409, res.text);
      assert.equal((await roles(h, acme))[owner.email], 'owner');
      // The operator's CLI (the system actor) keeps the rule too.
      await assert.rejects(
        h.services.accounts.addMember(system, acme, { email: owner.email, role: 'member' }),
        (e: unknown) => e instanceof DomainError && e.code === 'conflict',
      );
      await assert.rejects(
        h.services.accounts.removeMember(system, acme, { email: owner.email }),
        (e: unknown) => e instanceof DomainError && e.code === 'conflict',
      );
    });

    await t.test('an owner makes another owner, who may then change the first', async () => {
      const promote = await api.call('PUT', `/members/${enc(admin.email)}`, {
        key: owner.key,
        body: { role: 'owner' },
      });
      assert.equal(promote.status, 200, promote.text);
      const demote = await api.call('PUT', `/members/${enc(owner.email)}`, {
        key: admin.key,
        body: { role: 'admin' },
      });
      assert.equal(demote.status, 200, demote.text);
      const last = await api.call('DELETE', `/members/${enc(admin.email)}`, { key: admin.key });
      assert.equal(last.status, 409, last.text);
      // The admin the first owner now is cannot take it back.
      const back = await api.call('PUT', `/members/${enc(admin.email)}`, {
        key: owner.key,
        body: { role: 'member' },
      });
      assert.equal(back.status, 403, back.text);
    });

    await t.test('concurrent demotions of the last two owners: one wins', async () => {
      for (let round = 0; round < 6; round++) {
        const c = await h.store.communities.create({
          slug: `race-${engine.name}-${round}`,
          name: 'Race',
          visibility: 'public',
        });
        const a = await person(h, c, `a${round}@race.test`, 'owner');
        const b = await person(h, c, `b${round}@race.test`, 'owner');
        // Each owner demotes the other; then the operator demotes both at once.
        const mutual = await Promise.allSettled([
          h.services.accounts.addMember(a.actor, c, { email: b.email, role: 'member' }),
          h.services.accounts.addMember(b.actor, c, { email: a.email, role: 'member' }),
        ]);
        assert.equal(mutual.filter((r) => r.status === 'fulfilled').length, 1, `round ${round}`);
        const owners = () =>
          roles(h, c).then((r) => Object.values(r).filter((x) => x === 'owner').length);
        assert.equal(await owners(), 1);
        const loser = mutual[0]!.status === 'fulfilled' ? b : a;
        await h.services.accounts.addMember(system, c, { email: loser.email, role: 'owner' });
        const both = await Promise.allSettled([
          h.services.accounts.addMember(system, c, { email: a.email, role: 'member' }),
          h.services.accounts.removeMember(system, c, { email: b.email }),
        ]);
        assert.equal(both.filter((r) => r.status === 'fulfilled').length, 1, `round ${round}`);
        const refused = both.find((r) => r.status === 'rejected')!;
        assert.match(String(refused.reason), /make another member an owner first/);
        assert.equal(await owners(), 1);
      }
    });

    await t.test('without an owner, the last administrator stays', async () => {
      const c = await h.store.communities.create({
        slug: `ownerless-${engine.name}`,
        name: 'Ownerless',
        visibility: 'public',
      });
      const only = await person(h, c, 'only-admin@x.test', 'admin');
      await person(h, c, 'helper@x.test', 'member');
      await assert.rejects(
        h.services.accounts.addMember(only.actor, c, { email: only.email, role: 'member' }),
        /You are the last administrator of "ownerless-.*": make another member an admin first/,
      );
      await h.services.accounts.addMember(only.actor, c, { email: 'helper@x.test', role: 'admin' });
      await h.services.accounts.removeMember(only.actor, c, { email: only.email });
      assert.deepEqual(await roles(h, c), { 'helper@x.test': 'admin' });
    });

    await t.test('the web asks before demoting yourself or removing a member', async () => {
      const c = acme;
      const web = await signedIn(h, admin.email); // an owner now
      await web.get('/admin/members');
      const ask = await web.post('/admin/members', { email: admin.email, role: 'member' });
      assert.equal(ask.status, 200, ask.text);
      assert.match(visible(ask.text), /You are about to change your own role/);
      assert.match(ask.text, /name="confirm" value="yes"/);
      assert.equal((await roles(h, c))[admin.email], 'owner', 'nothing changed before confirming');
      const refused = await web.post('/admin/members', {
        email: admin.email,
        role: 'member',
        confirm: 'yes',
      });
      assert.match(
        visible(refused.text),
        /last owner of "acme".*make another member an owner first/,
      );
      assert.equal((await roles(h, c))[admin.email], 'owner');

      await web.get('/admin/members');
      const removing = await web.post('/admin/members/remove', { email: member.email });
      assert.equal(removing.status, 200, removing.text);
      assert.match(visible(removing.text), /Remove member@x\.test from "acme"\?/);
      assert.equal((await roles(h, c))[member.email], 'moderator', 'still there before confirming');
      const removed = await web.post('/admin/members/remove', {
        email: member.email,
        confirm: 'yes',
      });
      assert.match(visible(removed.text), /member@x\.test is no longer a member/);
      assert.equal((await roles(h, c))[member.email], undefined);

      // Changing someone else's role needs no confirmation.
      await web.get('/admin/members');
      const direct = await web.post('/admin/members', { email: owner.email, role: 'moderator' });
      assert.match(visible(direct.text), /owner@x\.test is now moderator/);
    });
  } finally {
    await h.stop();
  }
});

eachEngine('roles: a non-member of a public community writes no article', async (engine, t) => {
  const h = await startTestHamlet(
    { ...engine.env, LOG_LEVEL: 'warn', HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000' },
    { demo: true },
  );
  try {
    const acme = (await h.store.communities.getBySlug('acme'))!;
    const api = new Api(`http://127.0.0.1:${h.port}/c/acme`);
    const owner = await person(h, acme, 'owner@x.test', 'owner');
    const member = await person(h, acme, 'member@x.test', 'member');
    const outsider = await person(h, acme, 'outsider@x.test');
    const article = () => api.call('GET', '/articles/connect-an-agent', { key: owner.key });
    const before = (await article()).json;
    const revision = {
      title: 'Connect an agent (rewritten)',
      body: 'Rewritten by someone who is not a member of acme.',
    };

    await t.test('REST: revising or creating an article is refused', async () => {
      const put = await api.call('PUT', '/articles/connect-an-agent', {
        key: outsider.key,
        body: revision,
      });
      assert.equal(put.status, 403, put.text);
      assert.match(put.json.detail, /members of "acme"/);
      const created = await api.call('POST', '/topics', {
        key: outsider.key,
        body: { category: 'docs', title: 'A brand new article', body: 'Written by an outsider.' },
      });
      assert.equal(created.status, 403, created.text);
      assert.deepEqual((await article()).json, before, 'the article is unchanged');
    });

    await t.test('MCP: ask_community into a knowledge base is refused', async () => {
      const answer = await callTool(
        h.hostUrl('localhost', '/api/mcp'),
        'ask_community',
        {
          community: 'acme',
          category: 'docs',
          title: 'An article via the network',
          body: 'x'.repeat(20),
        },
        outsider.key,
      );
      assert.equal(answer.isError, true, JSON.stringify(answer));
      assert.equal(answer.structured?.code, 'forbidden');
      assert.ok(!scopesForRole(undefined, acme).includes('article:write'), 'no app gets it either');
      assert.ok(scopesForRole('member', acme).includes('article:write'));
    });

    await t.test('web: no revise link, and the revise form is refused', async () => {
      const web = await signedIn(h, outsider.email);
      const page = await web.get('/t/connect-an-agent');
      assert.doesNotMatch(page.text, /Revise this article/);
      const res = await web.post('/t/connect-an-agent/revise', revision);
      assert.match(visible(res.text), /members of "acme"/);
      assert.deepEqual((await article()).json, before);
    });

    await t.test('every other write of the catalogue is refused to a non-member', async () => {
      const pipeline = new Pipeline(
        h.services,
        { mcp: () => '', web: () => '', inPathForm: (v) => v, listsPathForm: false },
        createLogger('silent'),
      );
      const session = await h.services.accounts.createWebSession(outsider.personId);
      const actor = (await h.services.accounts.resolveWebSession(session.token))!;
      const scope = h.store.community(acme.id);
      const topic = (await scope.topics.getBySlug('verifying-the-hamlet-signature-header'))!;
      const question = (await scope.posts.getFirst(topic.id))!;
      assert.ok(topic.solutionPostId, 'the demo topic has an accepted answer');
      const unknown = randomUUID();
      // Each write with valid arguments (the refusal is the rule's, not the schema's), aimed at
      // what the outsider does not own: forbidden (`missing`: not_found also, there is none).
      const refused: Record<string, { args: unknown; missing?: true }> = {
        create_topic: {
          args: {
            category: 'docs',
            title: 'An article from outside',
            body: 'Written by an outsider.',
          },
        },
        revise_article: { args: { article: 'connect-an-agent', ...revision } },
        mark_solution: { args: { topic: topic.id, post: topic.solutionPostId } },
        unmark_solution: { args: { topic: topic.id } },
        edit_post: { args: { post: question.id, body: 'Edited by an outsider.' } },
        approve: { args: { approval_id: unknown } },
        reject: { args: { approval_id: unknown, reason: 'No.' } },
        set_approval_policy: { args: { kind: 'topic.create', mode: 'auto' } },
        set_mcp_config: { args: { config: DEFAULT_MCP_CONFIG } },
        create_agent: { args: { name: 'outsider-bot' } },
        update_agent: { args: { agent: 'acme-helper', trusted: true } },
        mint_agent_key: { args: { agent: 'acme-helper' } },
        revoke_agent_key: { args: { key: unknown } },
        set_member: { args: { email: outsider.email, role: 'member' } },
        remove_member: { args: { email: owner.email } },
        create_webhook: {
          args: { url: 'https://example.com/hook', events: ['topic.created'] },
        },
        update_webhook: { args: { webhook: unknown, active: false } },
        delete_webhook: { args: { webhook: unknown } },
        rotate_webhook_secret: { args: { webhook: unknown } },
        redeliver_webhook: { args: { delivery: unknown } },
        update_community_settings: { args: { name: 'Taken over' } },
        set_app_policy: { args: { mode: 'any' } },
        create_category: { args: { name: 'From outside' } },
        update_category: { args: { category: 'support', name: 'Taken over' } },
        delete_category: { args: { category: 'support', move_to: 'general' } },
        retry_mail: { args: { id: unknown }, missing: true },
        send_password_reset: { args: { email: owner.email } },
        set_unverified_posting: { args: { allowed: true } },
        // A person disconnects their own connections only: the outsider has none to name.
        disconnect_app: { args: { connection: unknown }, missing: true },
        // Moderators' and administrators' tools.
        set_vote_settings: { args: { downvotes: true } },
        decide_review: {
          args: { kind: 'flag', id: question.id, decision: 'hide', reason: 'No.' },
        },
        hide_post: { args: { post: question.id, note: 'Hidden from outside.' } },
        unhide_post: { args: { post: question.id } },
        sanction: {
          args: {
            subject_kind: 'agent',
            subject: 'acme-helper',
            mode: 'silenced',
            days: 1,
            reason: 'No.',
          },
        },
        lift_sanction: { args: { subject_kind: 'agent', subject: 'acme-helper' } },
        set_moderation_settings: { args: { flags_to_hide: 1 } },
        close_topic: { args: { topic: topic.id } },
        reopen_topic: { args: { topic: topic.id } },
        lock_topic: { args: { topic: topic.id } },
        unlock_topic: { args: { topic: topic.id } },
        pin_topic: { args: { topic: topic.id } },
        unpin_topic: { args: { topic: topic.id } },
        delete_topic: { args: { topic: topic.id, reason: 'From outside.' } },
        restore_topic: { args: { topic: topic.id } },
        delete_post: { args: { post: question.id, reason: 'From outside.' } },
        restore_post: { args: { post: question.id } },
        move_topic: { args: { topic: topic.id, category: 'general' } },
        set_topic_tags: { args: { topic: topic.id, tags: ['outside'] } },
        mark_duplicate: { args: { topic: topic.id, of: 'getting-started' } },
        merge_topic: { args: { topic: topic.id, into: 'getting-started' } },
        clear_dispute: { args: { post: question.id } },
      };
      // Writes the spec gives any signed-in person of a public community (checked below).
      // A person's own settings here (read marks, levels, e-mail frequency, handle) touch no one else's.
      const open = new Set([
        'reply_to_topic',
        'mark_notifications_read',
        'set_watch_level',
        'set_notification_preferences',
        'set_my_handle',
        // A person's own name, bio and picture: their profile, no one else's.
        'set_profile',
        'save_draft',
        'discard_draft',
        'bookmark',
        // Feedback, like a reply: a vote, whether an answer worked, a flag for the moderators.
        'vote',
        'confirm_answer',
        'flag_post',
        // A file to attach to a reply: whoever may reply may upload (within the community's quota).
        'upload_file',
      ]);
      const writes = CATALOGUE.filter((op) => op.server === 'community' && op.write);
      assert.deepEqual(
        writes.map((op) => op.name).filter((n) => !(n in refused) && !open.has(n)),
        [],
        'every community write is classified here',
      );
      const wrong: string[] = [];
      for (const op of writes.filter((o) => o.name in refused)) {
        const { args, missing } = refused[op.name]!;
        const got = await pipeline.invoke(
          op,
          { community: acme, person: actor, ip: '203.0.113.9', visitor: true },
          args,
        );
        const allowed = missing ? ['forbidden', 'not_found'] : ['forbidden'];
        if (got.ok || !allowed.includes(got.code))
          wrong.push(`${op.name}: ${got.ok ? 'ok' : `${got.code} ${got.message}`}`);
      }
      assert.deepEqual(wrong, []);
      assert.deepEqual((await article()).json, before);
      assert.equal((await roles(h, acme))[outsider.email], undefined);
    });

    await t.test('what the spec allows stays: asking and replying in a discussion', async () => {
      const asked = await api.call('POST', '/topics', {
        key: outsider.key,
        body: { category: 'support', title: 'How do I rotate a key?', body: 'Which command?' },
      });
      assert.equal(asked.status, 201, asked.text);
      const replied = await api.call('POST', `/topics/${asked.json.topic.slug}/posts`, {
        key: outsider.key,
        body: { body: 'Found it myself: hamlet key mint.' },
      });
      assert.equal(replied.status, 201, replied.text);
    });

    await t.test('a member revises, under the approval policy', async () => {
      const put = await api.call('PUT', '/articles/connect-an-agent', {
        key: member.key,
        body: { ...revision, body: 'Revised by a member of acme.' },
      });
      assert.equal(put.status, 200, put.text);
      const policy = await api.call('PUT', '/settings/approval-policies/article.write', {
        key: owner.key,
        body: { mode: 'approval' },
      });
      assert.equal(policy.status, 200, policy.text);
      const queued = await api.call('PUT', '/articles/connect-an-agent', {
        key: member.key,
        body: { ...revision, body: 'Queued revision by a member.' },
      });
      assert.equal(queued.status, 202, queued.text);
      assert.equal(queued.json.status, 'pending_approval');
      assert.doesNotMatch((await article()).text, /Queued revision/);
    });
  } finally {
    await h.stop();
  }
});
