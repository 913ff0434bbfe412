// Without a credential that may read it, a private community's host is indistinguishable from an
// unknown host on the web and /llms: same status, same page, same text (host and path form alike).
// Its own agent's key, or a member's user key, makes it visible; another community's key does not.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { raw, type RawResponse } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

let h: TestHamlet;
let skunkKey: string;
let acmeKey: string;
let memberKey: string;
let outsiderKey: string;
before(async () => {
  h = await startTestHamlet({}, { demo: true });
  const system = systemActor('test');
  const [acme, skunk] = [
    (await h.store.communities.getBySlug('acme'))!,
    (await h.store.communities.getBySlug('skunkworks'))!,
  ];
  skunkKey = (await h.services.agents.create(system, skunk, { name: 'skunk-reader', scopes: [] }))
    .key;
  acmeKey = (await h.services.agents.create(system, acme, { name: 'acme-reader', scopes: [] })).key;
  await h.services.accounts.createUser(system, {
    email: 'member@example.com',
    name: 'Member',
    password: 'correct horse battery',
  });
  await h.services.accounts.addMember(system, skunk, {
    email: 'member@example.com',
    role: 'member',
  });
  await h.services.accounts.createUser(system, {
    email: 'outsider@example.com',
    name: 'Outsider',
    password: 'correct horse battery',
  });
  memberKey = (await h.services.accounts.mintUserKey(system, { email: 'member@example.com' })).key;
  outsiderKey = (await h.services.accounts.mintUserKey(system, { email: 'outsider@example.com' }))
    .key;
});
after(() => h.stop());

const same = (a: RawResponse, b: RawResponse, what: string) => {
  assert.equal(a.status, b.status, what);
  assert.equal(a.headers['content-type'], b.headers['content-type'], what);
  assert.equal(a.text, b.text, what);
};

const PATHS = [
  '/',
  '/llms',
  '/llms.txt',
  '/llms?section=errors',
  '/t/project-falcon-launch-checklist',
  '/search?q=falcon',
  '/nothing-here',
];

test('a private community without a credential answers exactly as an unknown host', async () => {
  for (const path of PATHS) {
    // Compared with an unknown community addressed the same way (host form, path form).
    const unknown = await raw(h.hostUrl('nosuch.localhost', path));
    const unknownPathForm = await raw(`http://127.0.0.1:${h.port}/c/nosuch${path}`);
    assert.equal(unknown.status, 404, path);
    const credentials: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${acmeKey}` },
      { 'x-api-key': outsiderKey },
      { authorization: 'Bearer hmlt_live_forgedforgedforgedforgedforged1234' },
    ];
    for (const headers of credentials) {
      same(
        await raw(h.hostUrl('skunkworks.localhost', path), { headers }),
        unknown,
        `skunkworks${path} ${JSON.stringify(headers)}`,
      );
      same(
        await raw(`http://127.0.0.1:${h.port}/c/skunkworks${path}`, { headers }),
        unknownPathForm,
        `/c/skunkworks${path}`,
      );
    }
  }
});

test("its own agent key or a member's user key makes the private community visible", async () => {
  const credentials: Record<string, string>[] = [
    { authorization: `Bearer ${skunkKey}` },
    { 'x-api-key': skunkKey },
    { authorization: `Bearer ${memberKey}` },
  ];
  for (const headers of credentials) {
    const llms = await raw(h.hostUrl('skunkworks.localhost', '/llms'), { headers });
    assert.equal(llms.status, 200, JSON.stringify(headers));
    assert.match(llms.text, /^# Hamlet agent documentation/);
  }
});
