// REST where there is no community the request may see answers application/problem+json 404, and
// the very same answer for an unknown community and for a private one without a credential that
// reads it (another community's key, no key, a made-up key), on the host and the /c/<slug> form,
// for every kind of REST path; the private community's own key still reaches it. On both engines.
// An unexpected failure on a REST path is problem+json too, not the web's error page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/log.ts';
import { InvalidText } from '../../src/store/errors.ts';
import { eachEngine } from '../security/engines.ts';
import { startRestFixture, type Reply } from './fixture.ts';

/** What a client can tell apart: status, content type and body (nothing else is compared). */
const seen = (r: Reply) => ({
  status: r.status,
  type: r.headers.get('content-type'),
  cors: r.headers.get('access-control-allow-origin'),
  body: r.text,
});

eachEngine(
  'REST on an unknown or private community answers one problem+json 404',
  async (engine) => {
    const f = await startRestFixture(engine.env);
    try {
      const { api, keys, h } = f;
      const bases = {
        unknownHost: h.hostUrl('nowhere.localhost', '/api/v1'),
        unknownPath: h.hostUrl('localhost', '/c/nowhere/api/v1'),
        privateHost: h.hostUrl('skunkworks.localhost', '/api/v1'),
        privatePath: h.hostUrl('localhost', '/c/skunkworks/api/v1'),
      };
      const asks: Array<[string, string, { key?: string; body?: unknown }]> = [
        ['GET', '/topics', {}],
        ['GET', '/topics', { key: keys.reader }], // acme's key: not one of skunkworks
        ['GET', '/topics', { key: 'hk_made_up_key_0123456789' }],
        ['GET', '/openapi.json', {}],
        ['GET', '/no-such-route', {}],
        ['POST', '/topics', { key: keys.writer, body: { title: 'x' } }],
        ['DELETE', '/categories', {}],
      ];
      let reference: ReturnType<typeof seen> | undefined;
      for (const [name, base] of Object.entries(bases)) {
        for (const [method, path, o] of asks) {
          const r = await api.call(method, `${base}${path}`, o);
          const what = `${name} ${method} ${path}${o.key ? ' with a key' : ''}`;
          assert.equal(r.status, 404, `${what}: ${r.text.slice(0, 120)}`);
          assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
          assert.equal(r.json.code, 'not_found', what);
          reference ??= seen(r);
          assert.deepEqual(seen(r), reference, what);
        }
      }
      // The private community's own key reads it, on both forms.
      for (const base of [bases.privateHost, bases.privatePath])
        assert.equal((await api.call('GET', `${base}/topics`, { key: keys.foreign })).status, 200);
    } finally {
      await f.stop();
    }
  },
);

test('an unexpected failure on a REST path is problem+json, on a web path the HTML page', async () => {
  const logged: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logged.push(String(chunk));
      done();
    },
  });
  const app = createApp({
    logger: createLogger('error', sink),
    ready: async () => ({ ready: true, database: 'ok' }),
    hostKind: async () => 'community',
    clientIp: () => '203.0.113.1',
    llms: () => ({ found: true, text: '' }),
    mount: (a) => {
      a.get('/api/v1/boom', () => {
        throw new Error('a bug');
      });
      a.get('/api/v1/nul', () => {
        throw new InvalidText();
      });
      a.get('/boom', () => {
        throw new Error('a bug');
      });
    },
  });
  const boom = await app.request('/api/v1/boom');
  assert.equal(boom.status, 500);
  assert.match(boom.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(((await boom.json()) as { code: string }).code, 'internal');
  const nul = await app.request('/api/v1/nul');
  assert.equal(nul.status, 400);
  assert.equal(((await nul.json()) as { code: string }).code, 'invalid_argument');
  const page = await app.request('/boom');
  assert.equal(page.status, 500);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(logged.filter((l) => l.includes('a bug')).length, 2, 'both failures logged');
});
