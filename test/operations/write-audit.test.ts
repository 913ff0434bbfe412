// The writes of accounts, members, agents, keys, communities, flags, sanctions, moderation settings,
// webhooks and account links run by the one write runner, seen in the audit log, on both engines: a call through the pipeline leaves exactly
// one entry (the call's, written in the write's transaction, with the ids the write touched, in the
// community it belongs to), a refused one exactly one with its error code; the operator's writes
// (the CLI, without a call) are audited as the system's, each with an entry named after the write;
// the mail passes (deliveries the system makes on its own) leave none.
import assert from 'node:assert/strict';
import { systemActor, type PersonActor } from '../../src/domain/actor.ts';
import { NotificationMails } from '../../src/domain/mail/notification-mails.ts';
import { operationNamed } from '../../src/operations/catalogue.ts';
import { Pipeline, type Caller, type Outcome } from '../../src/operations/pipeline.ts';
import type { AuditEntry } from '../../src/store/identity.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { eachEngine } from '../security/engines.ts';

const system = systemActor('test');
const PASSWORD = 'a long enough password';

eachEngine('each write is audited once: by its call, or as the operator’s', async (engine) => {
  const h: TestHamlet = await startTestHamlet(
    {
      ...engine.env,
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '10000',
      HAMLET_COMMUNITY_CREATION: '1',
      HAMLET_SMTP_URL: 'log:',
      // No dispatcher: the test runs the notification-mail pass itself.
      HAMLET_MAIL_DISPATCH: '0',
    },
    { demo: true },
  );
  try {
    const acme = (await h.store.communities.getBySlug('acme'))!;
    const pipeline = new Pipeline(
      h.services,
      {
        mcp: (s) => `mcp:${s}`,
        web: (s) => `web:${s}`,
        inPathForm: (v) => v,
        listsPathForm: false,
      },
      h.logger,
    );
    const entries = async (community: Community | null): Promise<AuditEntry[]> =>
      (await h.store.identity.audit.list(community?.id ?? null, { limit: 500 })).items;
    const person = async (email: string): Promise<PersonActor> => {
      await h.services.accounts.createUser(system, { email, password: PASSWORD, name: 'P' });
      const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
      return (await h.services.accounts.resolveWebSession(token))!;
    };
    /**
     * Runs the operation `name` and returns the one entry it added to `where`'s log (the test fails
     * on none, or on any other entry written meanwhile).
     */
    const once = async (
      where: Community | null,
      server: 'community' | 'network',
      name: string,
      caller: Caller,
      args: unknown,
      expect: 'ok' | 'error' = 'ok',
    ): Promise<{ entry: AuditEntry; outcome: Outcome<any> }> => {
      const before = new Set((await entries(where)).map((e) => e.id));
      const outcome = await pipeline.invoke(operationNamed(server, name)!, caller, args);
      assert.equal(outcome.ok, expect === 'ok', `${name}: ${JSON.stringify(outcome)}`);
      const added = (await entries(where)).filter((e) => !before.has(e.id));
      assert.deepEqual(
        added.map((e) => [e.action, e.outcome]),
        [[`tool:${name}`, expect]],
        `${name}: the entries it added`,
      );
      return { entry: added[0]!, outcome };
    };
    const at = (community: Community | null, who: PersonActor): Caller => ({
      community,
      ip: '10.1.2.3',
      person: who,
    });

    // The operator's writes: the account (no community), the role (the community's).
    const owner = await person('owner@write-audit.test');
    await h.services.accounts.addMember(system, acme, {
      email: 'owner@write-audit.test',
      role: 'owner',
    });
    const operators = (await entries(null)).filter((e) => e.actorKind === 'system');
    assert.ok(
      operators.some(
        (e) => e.action === 'account.create' && e.targets.person_id === owner.personId,
      ),
      'the operator’s account creation is audited, naming the account',
    );
    const roleEntry = (await entries(acme)).find((e) => e.action === 'member.set');
    assert.equal(roleEntry?.actorKind, 'system');
    assert.equal(roleEntry?.targets.person_id, owner.personId);

    // An administrator's writes in the community: one entry each, with what the write touched.
    const member = await person('member@write-audit.test');
    const asOwner = at(acme, owner);
    const set = await once(acme, 'community', 'set_member', asOwner, {
      email: 'member@write-audit.test',
      role: 'member',
    });
    assert.equal(set.entry.targets.person_id, member.personId);
    const agent = await once(acme, 'community', 'create_agent', asOwner, {
      name: 'audited-bot',
      scopes: ['topic:create'],
    });
    const agentId = agent.outcome.ok ? agent.outcome.value.agent.id : '';
    assert.equal(agent.entry.targets.agent_id, agentId);
    assert.ok(
      !JSON.stringify(agent.entry).includes(agent.outcome.ok ? agent.outcome.value.key : '-'),
    );
    await once(acme, 'community', 'update_agent', asOwner, { agent: agentId, trusted: true });
    const minted = await once(acme, 'community', 'mint_agent_key', asOwner, { agent: agentId });
    const keyId = minted.outcome.ok ? minted.outcome.value.record.id : '';
    assert.equal(minted.entry.targets.key_id, keyId);
    const revoked = await once(acme, 'community', 'revoke_agent_key', asOwner, { key: keyId });
    assert.equal(revoked.entry.targets.key_id, keyId);
    await once(acme, 'community', 'set_unverified_posting', asOwner, { allowed: true });
    await once(acme, 'community', 'update_community_settings', asOwner, {
      description: 'Audited settings',
    });
    const reset = await once(acme, 'community', 'send_password_reset', asOwner, {
      email: 'member@write-audit.test',
    });
    assert.equal(reset.entry.targets.person_id, member.personId);

    const mailId = (await h.store.mail.list({ communityId: acme.id, limit: 1 })).items[0]!.id;
    const retried = await once(acme, 'community', 'retry_mail', asOwner, { id: mailId });
    assert.equal(retried.entry.targets.mail_id, mailId);
    await once(acme, 'community', 'set_moderation_settings', asOwner, { flags_to_hide: 4 });
    const hook = await once(acme, 'community', 'create_webhook', asOwner, {
      url: 'https://hooks.example.org/audited',
      events: ['topic.created'],
    });
    const hookId = hook.outcome.ok ? hook.outcome.value.endpoint.id : '';
    assert.equal(hook.entry.targets.webhook_id, hookId);
    for (const [name, args] of [
      ['update_webhook', { webhook: hookId, description: 'Audited hook' }],
      ['rotate_webhook_secret', { webhook: hookId }],
      ['delete_webhook', { webhook: hookId }],
    ] as const)
      assert.equal(
        (await once(acme, 'community', name, asOwner, args)).entry.targets.webhook_id,
        hookId,
      );

    // A flag, and the moderators' decisions on the post.
    const written = await h.services.writes.execute(owner, acme, 'topic.create', {
      category: 'support',
      title: 'A post to flag for the audit',
      body: 'Somebody will flag this post as spam.',
    });
    const postId = written.status === 'applied' ? (written.result as any).post.id : '';
    const flagged = await once(acme, 'community', 'flag_post', at(acme, member), {
      post: postId,
      reason: 'spam',
    });
    assert.equal(flagged.entry.targets.post_id, postId);
    assert.ok(flagged.entry.targets.flag_id, 'the entry names the flag');
    for (const name of ['hide_post', 'unhide_post'])
      assert.equal(
        (await once(acme, 'community', name, asOwner, { post: postId })).entry.targets.post_id,
        postId,
      );
    await once(acme, 'community', 'flag_post', at(acme, member), { post: postId, reason: 'spam' });
    await once(acme, 'community', 'decide_review', asOwner, {
      kind: 'flag',
      id: postId,
      decision: 'dismiss',
    });
    // A queued write approved from the review queue: one entry, the call's.
    await h.services.approvals.setPolicy(system, acme, { kind: 'topic.create', mode: 'approval' });
    const queued = await h.services.writes.execute(member, acme, 'topic.create', {
      category: 'support',
      title: 'A queued question for the audit',
      body: 'It waits for a moderator.',
    });
    assert.equal(queued.status, 'pending_approval');
    const approved = await once(acme, 'community', 'decide_review', asOwner, {
      kind: 'approval',
      id: queued.status === 'pending_approval' ? queued.approval_id : '',
      decision: 'approve',
    });
    assert.equal(approved.entry.actorId, owner.personId);

    // A sanction and its lifting.
    const sanctioned = await once(acme, 'community', 'sanction', asOwner, {
      subject_kind: 'person',
      subject: 'member@write-audit.test',
      mode: 'silenced',
      days: 1,
      reason: 'Cooling off for the audit.',
    });
    assert.equal(sanctioned.entry.targets.subject_id, member.personId);
    assert.equal(sanctioned.entry.targets.mode, 'silenced');
    await once(acme, 'community', 'lift_sanction', asOwner, {
      subject_kind: 'person',
      subject: 'member@write-audit.test',
    });

    // A refused write: one entry with its code, and nothing changed (the last owner stays).
    const refused = await once(
      acme,
      'community',
      'remove_member',
      asOwner,
      { email: 'owner@write-audit.test' },
      'error',
    );
    assert.ok(refused.entry.errorCode, 'the refusal’s code is kept');
    assert.equal(
      (await h.store.community(acme.id).access.members.get(owner.personId))?.role,
      'owner',
    );
    const removed = await once(acme, 'community', 'remove_member', asOwner, {
      email: 'member@write-audit.test',
    });
    assert.equal(removed.entry.targets.person_id, member.personId);

    // A person's own writes, outside any community.
    const signedUp = await once(
      null,
      'network',
      'sign_up',
      { community: null, ip: '10.1.2.4' },
      {
        email: 'new@write-audit.test',
        password: PASSWORD,
        name: 'New',
      },
    );
    assert.ok(signedUp.entry.targets.person_id, 'a new account is named in the entry');
    const taken = await once(
      null,
      'network',
      'sign_up',
      { community: null, ip: '10.1.2.5' },
      {
        email: 'new@write-audit.test',
        password: PASSWORD,
        name: 'Again',
      },
    );
    assert.equal(taken.entry.targets.person_id, undefined, 'a taken address is not told apart');
    const myKey = await once(null, 'network', 'mint_my_key', at(null, owner), {});
    assert.ok(myKey.entry.targets.key_id);
    await once(null, 'network', 'revoke_my_key', at(null, owner), {
      key: myKey.outcome.ok ? myKey.outcome.value.record.prefix : '',
    });
    await once(
      null,
      'network',
      'request_password_reset',
      { community: null, ip: '10.1.2.6' },
      {
        email: 'owner@write-audit.test',
      },
    );
    await once(null, 'network', 'change_password', at(null, owner), {
      current_password: PASSWORD,
      new_password: `${PASSWORD} changed`,
    });

    // A community made by a person: its entry is in the new community's log, none outside it.
    const outside = (await entries(null)).length;
    const made = await pipeline.invoke(
      operationNamed('network', 'create_community')!,
      at(null, member),
      { slug: 'audited-made', name: 'Audited' },
    );
    assert.ok(made.ok, JSON.stringify(made));
    assert.equal((await entries(null)).length, outside);
    const created = (await h.store.communities.getBySlug('audited-made'))!;
    assert.deepEqual(
      (await entries(created)).map((e) => [e.action, e.outcome, e.actorId]),
      [['tool:create_community', 'ok', member.personId]],
    );

    // The mail pass settles the notifications the writes above made, and audits none of it.
    const before = (await entries(null)).length;
    const urls = {
      publicScheme: 'http' as const,
      baseDomain: 'localhost',
      port: h.port,
      publicOrigin: undefined,
    };
    const pass = new NotificationMails({
      store: h.store,
      mail: h.services.mail,
      config: urls,
      logger: h.logger,
      runner: h.services.writes.runner,
    });
    assert.ok((await pass.pass(200)) > 0, 'the pass settled notifications');
    assert.equal((await entries(null)).length, before);
  } finally {
    await h.stop();
  }
});
