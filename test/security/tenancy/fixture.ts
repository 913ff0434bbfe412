// The tenancy matrix's world: a public community (acme), another public one (globex), a private one
// (skunkworks) holding a secret, and a credential of every kind. Agents have no scopes, so writes
// tell "authenticated but not allowed" (forbidden) from "not authenticated" (unauthorized) and
// nothing is written.
import { systemActor } from '../../../src/domain/actor.ts';
import { writeApplied } from '../../../src/domain/writes/applied.ts';
import type { TestHamlet } from '../../app/helpers.ts';

/** Text only the private community holds: no answer to anyone else may contain it. */
export const SECRET = /zqxjleak|Orbital launch checklist|orbital-launch-checklist/i;

export type Credential = {
  name: string;
  headers: Record<string, string>;
  agentOf?: string;
  memberOf?: string;
  userKey?: boolean;
};
export type Place = {
  name: string;
  url: (path: string) => string;
  kind: 'community' | 'network' | 'unknown';
  slug?: string;
  isPublic?: boolean;
  topic?: string;
};

export async function world(
  h: TestHamlet,
): Promise<{ credentials: Credential[]; places: Place[] }> {
  const system = systemActor('matrix');
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const skunk = (await h.store.communities.getBySlug('skunkworks'))!;
  const globex = await h.store.communities.create({
    slug: 'globex',
    name: 'Globex',
    visibility: 'public',
  });
  await h.services.categories.create(system, globex, { slug: 'general', name: 'General' });
  const globexTopic = await writeApplied(h.services.writes, system, globex, 'topic.create', {
    category: 'general',
    title: 'Widgets that spin too fast',
    body: 'Our widgets spin too fast after the update.',
  });
  const secret = await writeApplied(h.services.writes, system, skunk, 'topic.create', {
    category: 'projects',
    title: 'Orbital launch checklist',
    body: 'The zqxjleak countdown starts at T-10.',
  });
  const acmeTopic = (await h.store
    .community(acme.id)
    .topics.getBySlug('verifying-the-hamlet-signature-header'))!;

  const agentKey = async (community: typeof acme, name: string) =>
    (await h.services.agents.create(system, community, { name, scopes: [] })).key;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
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
  const revoked = await agentKey(acme, 'matrix-revoked');
  await h.services.agents.revokeKey(system, acme, { key: revoked });

  const credentials: Credential[] = [
    { name: 'no credential', headers: {} },
    {
      name: 'agent key of acme',
      headers: bearer(await agentKey(acme, 'matrix-acme')),
      agentOf: 'acme',
    },
    {
      name: 'agent key of skunkworks',
      headers: { 'x-api-key': await agentKey(skunk, 'matrix-skunk') },
      agentOf: 'skunkworks',
    },
    {
      name: 'agent key of globex',
      headers: bearer(await agentKey(globex, 'matrix-globex')),
      agentOf: 'globex',
    },
    {
      name: 'user key of a skunkworks member',
      headers: bearer(
        (await h.services.accounts.mintUserKey(system, { email: 'member@example.com' })).key,
      ),
      memberOf: 'skunkworks',
      userKey: true,
    },
    {
      name: 'user key of an outsider',
      headers: bearer(
        (await h.services.accounts.mintUserKey(system, { email: 'outsider@example.com' })).key,
      ),
      userKey: true,
    },
    { name: 'revoked agent key of acme', headers: bearer(revoked) },
    { name: 'malformed key', headers: bearer('hmlt_live_short') },
  ];
  const direct = (path: string) => `http://127.0.0.1:${h.port}${path}`;
  const places: Place[] = [
    {
      name: 'public community acme',
      url: (p) => h.hostUrl('acme.localhost', p),
      kind: 'community',
      slug: 'acme',
      isPublic: true,
      topic: acmeTopic.id,
    },
    {
      name: 'other public community globex',
      url: (p) => h.hostUrl('globex.localhost', p),
      kind: 'community',
      slug: 'globex',
      isPublic: true,
      topic: globexTopic.topic.id,
    },
    {
      name: 'private community skunkworks',
      url: (p) => h.hostUrl('skunkworks.localhost', p),
      kind: 'community',
      slug: 'skunkworks',
      isPublic: false,
      topic: secret.topic.id,
    },
    {
      name: 'private community skunkworks (path form)',
      url: (p) => direct(`/c/skunkworks${p}`),
      kind: 'community',
      slug: 'skunkworks',
      isPublic: false,
      topic: secret.topic.id,
    },
    { name: 'network', url: (p) => h.hostUrl('localhost', p), kind: 'network' },
    {
      name: 'unknown host',
      url: (p) => h.hostUrl('nosuch.localhost', p),
      kind: 'unknown',
      slug: 'nosuch',
      topic: secret.topic.id,
    },
  ];
  return { credentials, places };
}

/** Whether the credential may know the place's community exists (public, its agent, or a member). */
export function canSee(c: Credential, p: Place): boolean {
  return (
    p.kind === 'community' && (p.isPublic === true || c.agentOf === p.slug || c.memberOf === p.slug)
  );
}
