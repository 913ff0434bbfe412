// A running Hamlet (demo communities) for the REST tests, on SQLite or a fresh PostgreSQL database,
// with one credential of every kind: agent keys (reader, writer, decider), a member's and the
// owner's user keys, the owner's web session with its CSRF token, and another community's key.
import '../helpers/localhost-dns.mjs';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import type { Scope } from '../../src/domain/vocabulary.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

export type Credentials = {
  reader: string;
  writer: string;
  decider: string;
  member: string;
  owner: string;
  session: { cookie: string; csrf: string };
  foreign: string;
};

export type Fixture = {
  h: TestHamlet;
  acme: Community;
  keys: Credentials;
  api: Api;
  network: Api;
  stop(): Promise<void>;
};

export type Reply = { status: number; headers: Headers; text: string; json: any };
export type Call = {
  key?: string;
  apiKeyHeader?: boolean;
  body?: unknown;
  /** The body as it is sent: text (JSON unless a content-type is given), bytes, or a form. */
  raw?: string | Blob | FormData;
  headers?: Record<string, string>;
  session?: Credentials['session'];
};

/** A client for one host's /api/v1. */
export class Api {
  constructor(private readonly base: string) {}

  url(path: string): string {
    return `${this.base}/api/v1${path}`;
  }

  async call(method: string, path: string, o: Call = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key)
      headers[o.apiKeyHeader ? 'x-api-key' : 'authorization'] = o.apiKeyHeader
        ? o.key
        : `Bearer ${o.key}`;
    if (o.session)
      Object.assign(headers, { cookie: o.session.cookie, 'x-csrf-token': o.session.csrf });
    const body = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    if (typeof body === 'string' && !headers['content-type'])
      headers['content-type'] = 'application/json';
    const res = await fetch(path.startsWith('http') ? path : this.url(path), {
      method,
      headers,
      body,
    });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }
}

export async function startRestFixture(env: Record<string, string> = {}): Promise<Fixture> {
  const h = await startTestHamlet(
    {
      LOG_LEVEL: 'warn',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '300',
      ...env,
    },
    { demo: true },
  );
  const system = systemActor('test');
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const skunkworks = (await h.store.communities.getBySlug('skunkworks'))!;
  const agent = async (c: Community, name: string, scopes: Scope[]) =>
    (await h.services.agents.create(system, c, { name, scopes })).key;
  const person = async (email: string, role: string) => {
    const p = await h.services.accounts.createUser(system, {
      email,
      password: 'correct horse battery',
    });
    await h.services.accounts.addMember(system, acme, { email, role });
    return { person: p, key: (await h.services.accounts.mintUserKey(system, { email })).key };
  };
  const owner = await person('owner@example.com', 'owner');
  const session = await h.services.accounts.createWebSession(owner.person.id);
  const keys: Credentials = {
    reader: await agent(acme, 'reader-bot', []),
    writer: await agent(acme, 'writer-bot', [
      'topic:create',
      'post:create',
      'solution:mark',
      'article:write',
    ]),
    decider: await agent(acme, 'decider-bot', ['approval:decide']),
    member: (await person('member@example.com', 'member')).key,
    owner: owner.key,
    session: { cookie: `hamlet_session=${session.token}`, csrf: session.csrfToken },
    foreign: await agent(skunkworks, 'outsider-bot', ['topic:create']),
  };
  return {
    h,
    acme,
    keys,
    api: new Api(h.hostUrl('acme.localhost', '').replace(/\/$/, '')),
    network: new Api(h.hostUrl('localhost', '').replace(/\/$/, '')),
    stop: () => h.stop(),
  };
}
