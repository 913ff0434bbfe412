// The operations people need beyond asking and answering, through the pipeline: sign-up (closable),
// changing a password (every session ends), editing one's post only within the window, profiles
// that never show someone outside the community, creating a community only where allowed, and
// community settings for administrators.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor, type PersonActor } from '../../src/domain/actor.ts';
import { EDIT_WINDOW_MS } from '../../src/domain/authorization.ts';
import { operationNamed } from '../../src/operations/catalogue.ts';
import { Pipeline, type Caller } from '../../src/operations/pipeline.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { postEdit } from '../../src/domain/writes/post-edit.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'a long enough password';
let h: TestHamlet;
let acme: Community;
let pipeline: Pipeline;

async function person(email: string): Promise<PersonActor> {
  await h.services.accounts.createUser(system, {
    email,
    password: PASSWORD,
    name: email.split('@')[0],
  });
  return (await h.services.accounts.resolveWebSession(
    (await h.services.accounts.signIn({ email, password: PASSWORD })).token,
  ))!;
}
const at = (community: Community | null, who: Partial<Caller> = {}): Caller => ({
  community,
  ip: '10.9.9.9',
  ...who,
});
const run = (server: 'community' | 'network', name: string, caller: Caller, args: unknown) =>
  pipeline.invoke(operationNamed(server, name)!, caller, args);

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '10000' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
  pipeline = new Pipeline(
    h.services,
    { mcp: (s) => `mcp:${s}`, web: (s) => `web:${s}`, inPathForm: (v) => v, listsPathForm: false },
    h.logger,
  );
});
after(() => h.stop());

test('a post is editable by its author within the window, then no more', async () => {
  const author = await person('editor@example.org');
  const { post } = await writeApplied(h.services.writes, author, acme, 'topic.create', {
    category: 'support',
    title: 'Editing within the window',
    body: 'The first version of it.',
  });
  const edited = await run('community', 'edit_post', at(acme, { person: author }), {
    post: post.id,
    body: 'The second version of it.',
    title: 'Editing within the window, edited',
  });
  assert.ok(edited.ok, JSON.stringify(edited));
  assert.equal((edited as any).value.topic.title, 'Editing within the window, edited');
  const tooShort = await run('community', 'edit_post', at(acme, { person: author }), {
    post: post.id,
    body: 'short',
  });
  assert.equal(tooShort.ok, false);
  const late = new Date(Date.parse(post.createdAt) + EDIT_WINDOW_MS + 1000);
  await assert.rejects(
    h.services.writes.runner.run(
      postEdit,
      author,
      acme,
      { post: post.id, body: 'Too late for this.' },
      { now: late },
    ),
    /can be edited for 24 hours after posting/,
  );
  const moderator = {
    ...(await person('mod-edit@example.org')),
    roles: { [acme.id]: 'moderator' as const },
  };
  await h.services.writes.runner.run(
    postEdit,
    moderator,
    acme,
    { post: post.id, body: 'A moderator may fix it later.' },
    { now: late },
  );
});

test('profiles show people of the community and agents, never someone from elsewhere', async () => {
  const outsider = await person('outsider@example.org');
  const refused = await run('community', 'get_profile', at(acme, { visitor: true }), {
    id: outsider.personId,
  });
  assert.equal(refused.ok, false);
  assert.equal((refused as any).code, 'not_found');
  const helper = (await h.store.community(acme.id).agents.getByName('acme-helper'))!;
  const agent = await run('community', 'get_profile', at(acme, { visitor: true }), {
    id: helper.id,
  });
  assert.ok(agent.ok);
  assert.equal(
    (agent as any).value.label,
    'posted by agent acme-helper on behalf of community acme',
  );
  assert.ok((agent as any).value.posts.length > 0);
});

test('changing the password needs the current one and ends every session', async () => {
  const me = await person('changer@example.org');
  const session = await h.services.accounts.signIn({
    email: 'changer@example.org',
    password: PASSWORD,
  });
  const wrong = await run('network', 'change_password', at(null, { person: me }), {
    current_password: 'not it at all',
    new_password: 'a brand new password',
  });
  assert.equal((wrong as any).code, 'forbidden');
  const ok = await run('network', 'change_password', at(null, { person: me }), {
    current_password: PASSWORD,
    new_password: 'a brand new password',
  });
  assert.ok(ok.ok);
  assert.equal(await h.services.accounts.resolveWebSession(session.token), undefined);
  await h.services.accounts.signIn({
    email: 'changer@example.org',
    password: 'a brand new password',
  });
});

test('sign-up and creating communities follow the operator’s configuration', async () => {
  const created = await run('network', 'sign_up', at(null, { visitor: true }), {
    email: 'new@example.org',
    password: PASSWORD,
    name: 'New',
  });
  assert.ok(created.ok);
  const founder = await person('founder2@example.org');
  const community = await run('network', 'create_community', at(null, { person: founder }), {
    slug: 'nope-here',
    name: 'Nope',
  });
  assert.equal((community as any).code, 'forbidden');
  assert.match((community as any).message, /created by the operator/);
  const closed = await startTestHamlet({ HAMLET_SIGNUP: 'closed' });
  try {
    const p = new Pipeline(
      closed.services,
      { mcp: (s) => s, web: (s) => s, inPathForm: (v) => v, listsPathForm: false },
      closed.logger,
    );
    const refused = await p.invoke(
      operationNamed('network', 'sign_up')!,
      at(null, { visitor: true }),
      { email: 'x@example.org', password: PASSWORD, name: 'X' },
    );
    assert.equal((refused as any).code, 'forbidden');
    assert.match((refused as any).message, /Sign-up is closed/);
  } finally {
    await closed.stop();
  }
});

test('web visitors read public communities unaudited; a private one does not exist for them', async () => {
  const before = (await h.store.identity.audit.list(acme.id, { limit: 500 })).items.length;
  const listed = await run('community', 'list_topics', at(acme, { visitor: true }), {});
  assert.ok(listed.ok);
  assert.equal((await h.store.identity.audit.list(acme.id, { limit: 500 })).items.length, before);
  const skunk = (await h.store.communities.getBySlug('skunkworks'))!;
  const hidden = await run('community', 'list_topics', at(skunk, { visitor: true }), {});
  assert.equal((hidden as any).code, 'not_found');
  const noKey = await run('community', 'list_topics', at(acme), {});
  assert.equal(
    (noKey as any).code,
    'unauthorized',
    'without the visitor flag a key is still required',
  );
});
