// What the OAuth tests share: a local "MCP host" web server (its client metadata document and its
// redirect URI, recording every fetch and callback), people with a role in a community, and a web
// session for them in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemActor } from '../../src/domain/actor.ts';
import type { Role } from '../../src/domain/vocabulary.ts';
import type { Community } from '../../src/store/types.ts';
import type { TestHamlet } from '../app/helpers.ts';

export type ClientHost = {
  origin: string;
  clientId: string;
  redirectUri: string;
  metadataFetches: number;
  /** Resolves with the next callback URL the browser lands on. */
  nextCallback(): Promise<URL>;
  close(): Promise<void>;
};

/** A client's web server on 127.0.0.1: /client.json (its metadata document) and /callback. */
export async function startClientHost(name = 'Test Assistant'): Promise<ClientHost> {
  let waiting: ((url: URL) => void) | undefined;
  const host: ClientHost = {
    origin: '',
    clientId: '',
    redirectUri: '',
    metadataFetches: 0,
    nextCallback: () => new Promise<URL>((resolve) => (waiting = resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', host.origin);
    if (url.pathname === '/client.json') {
      host.metadataFetches++;
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
      res.end(JSON.stringify({
        client_id: host.clientId,
        client_name: name,
        client_uri: host.origin,
        redirect_uris: [host.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }));
      return;
    }
    if (url.pathname === '/callback') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Connected</title><p>You can close this window.</p>');
      waiting?.(url);
      waiting = undefined;
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  host.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host.clientId = `${host.origin}/client.json`;
  host.redirectUri = `${host.origin}/callback`;
  return host;
}

export type TestPerson = { personId: string; email: string; password: string; name: string };

/** A person with a password and, when `role` is given, that role in `community`. */
export async function addPerson(h: TestHamlet, community: Community, name: string, role?: Role): Promise<TestPerson> {
  const system = systemActor('test');
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`;
  const password = 'correct horse battery staple';
  const person = await h.services.accounts.createUser(system, { email, password, name });
  if (role) await h.services.accounts.addMember(system, community, { email, role });
  return { personId: person.id, email, password, name };
}

export const CHROMIUM = '/usr/bin/chromium';

/** Whether Debian's Chromium is here; if not, registers `name` as skipped (failed under CI=true). */
export function chromiumAvailable(name: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') test(name, () => assert.fail(`CI=true but ${CHROMIUM} is missing (apt-get install chromium)`));
  else test(name, { skip: `${CHROMIUM} is not installed` }, () => {});
  return false;
}
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
