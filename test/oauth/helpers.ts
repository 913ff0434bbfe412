// What the OAuth tests share: a local "MCP host" web server (its client metadata document and its
// redirect URI, recording every fetch and callback), a certificate for serving it over https, and
// people with a role in a community. (Chromium comes from test/web/browser-kit.ts.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * A client's web server on 127.0.0.1: /client.json (its metadata document) and /callback. With
 * `tls`, the document is served over https by a second server (the callback stays on http: a
 * loopback redirect URI).
 */
export async function startClientHost(
  name = 'Test Assistant',
  tls?: { key: string; cert: string },
): Promise<ClientHost> {
  let waiting: ((url: URL) => void) | undefined;
  const host: ClientHost = {
    origin: '',
    clientId: '',
    redirectUri: '',
    metadataFetches: 0,
    nextCallback: () => new Promise<URL>((resolve) => (waiting = resolve)),
    close: () =>
      Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      ).then(() => undefined),
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', host.origin);
    if (url.pathname === '/client.json') {
      host.metadataFetches++;
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
      res.end(
        JSON.stringify({
          client_id: host.clientId,
          client_name: name,
          client_uri: host.origin,
          redirect_uris: [host.redirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      );
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
  };
  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return (server.address() as AddressInfo).port;
  };
  const plain = createServer(handler);
  const servers: Server[] = [plain];
  const plainOrigin = `http://127.0.0.1:${await listen(plain)}`;
  host.origin = plainOrigin;
  if (tls) {
    const secure = createHttpsServer(tls, handler);
    servers.push(secure);
    host.origin = `https://127.0.0.1:${await listen(secure)}`;
  }
  host.clientId = `${host.origin}/client.json`;
  host.redirectUri = `${plainOrigin}/callback`;
  return host;
}

/** A self-signed certificate for 127.0.0.1 (openssl), or undefined when openssl is not installed. */
export function selfSignedCertificate():
  { key: string; cert: string; certFile: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-cert-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  if (made.status !== 0) return undefined;
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

export type TestPerson = { personId: string; email: string; password: string; name: string };

/** A person with a password and, when `role` is given, that role in `community`. */
export async function addPerson(
  h: TestHamlet,
  community: Community,
  name: string,
  role?: Role,
): Promise<TestPerson> {
  const system = systemActor('test');
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`;
  const password = 'correct horse battery staple';
  const person = await h.services.accounts.createUser(system, { email, password, name });
  if (role) await h.services.accounts.addMember(system, community, { email, role });
  return { personId: person.id, email, password, name };
}
