// One anonymous request to the OAuth faces never ends the process, on both engines: Hamlet runs as
// its own process (`hamlet serve --demo`), is sent what an outsider may send (the NUL character in
// the authorization request, on the page and in the consent form; more token, revocation and
// registration requests than the per-address budget allows), answers each cleanly (a 400 page;
// 429 `slow_down` with Retry-After in OAuth's JSON), and still serves the next request.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { raw, type RawResponse } from '../mcp/http-client.ts';
import { freePort, serveProcess } from '../helpers/serve.ts';
import { eachEngine } from './engines.ts';

/** Small enough to exhaust quickly: 20 token requests, or 2 registrations, a minute per address. */
const PER_IP_PER_MINUTE = 20;

eachEngine('an outsider cannot end the process through the OAuth faces', async (engine) => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-oauth-outsider-'));
  const port = await freePort();
  const started: ChildProcess[] = [];
  try {
    const { child } = await serveProcess(
      {
        DATABASE_URL: engine.env.DATABASE_URL ?? `sqlite:${join(dir, 'hamlet.db')}`,
        PORT: String(port),
        HOST: '127.0.0.1',
        // Each scenario comes from its own address (X-Forwarded-For), so budgets do not mix.
        HAMLET_TRUST_PROXY: '1',
        HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP_PER_MINUTE),
      },
      { demo: true, started },
    );
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    const url = (path: string) => `http://localhost:${port}${path}`;
    const from = (ip: string, headers: Record<string, string> = {}) => ({
      'x-forwarded-for': ip,
      ...headers,
    });
    /** The process is alive and answers: heartbeat, and a page that reads the database. */
    const stillServing = async (after: string) => {
      for (const path of ['/heartbeat', '/c/acme/', '/heartbeat']) {
        const r = await raw(url(path), { headers: from('198.51.100.250') }).catch(
          (err: Error) => ({ status: 0, text: err.message }) as RawResponse,
        );
        assert.equal(r.status, 200, `${after}: ${path} answered ${r.status}\n${stderr}`);
      }
      assert.equal(child.exitCode, null, `${after}: the process exited\n${stderr}`);
      assert.doesNotMatch(stderr, /Unhandled|unhandled/, `${after}: ${stderr}`);
    };

    // 1. The NUL character in client_id: a 400 page that says what is wrong, before any sign-in.
    const page = await raw(url('/c/acme/oauth/authorize?client_id=%00'), {
      headers: from('198.51.100.1'),
    });
    assert.equal(page.status, 400, page.text);
    assert.match(page.text, /NUL character/);
    await stillServing('GET /oauth/authorize?client_id=%00');

    // ... and in the consent form, sent by a visitor with a valid pre-session form token.
    const home = await raw(url('/c/acme/'), { headers: from('198.51.100.2') });
    const csrf = /hamlet_csrf=([^;]+)/.exec(home.headers['set-cookie'] ?? '')?.[1];
    assert.ok(csrf, 'a visitor gets a form token');
    const posted = await raw(url('/c/acme/oauth/authorize'), {
      method: 'POST',
      headers: from('198.51.100.2', {
        cookie: `hamlet_csrf=${csrf}`,
        'content-type': 'application/x-www-form-urlencoded',
      }),
      body: `_csrf=${csrf}&decision=allow&client_id=%00&response_type=code`,
    });
    assert.equal(posted.status, 400, posted.text);
    assert.match(posted.text, /NUL character/);
    await stillServing('POST /oauth/authorize with client_id=%00');

    // ... and in a registration: OAuth's JSON error, not a page.
    const nulClient = await raw(url('/c/acme/oauth/register'), {
      method: 'POST',
      headers: from('198.51.100.6', { 'content-type': 'application/json' }),
      body: JSON.stringify({ client_name: 'a\u0000b', redirect_uris: ['http://127.0.0.1/cb'] }),
    });
    assert.equal(nulClient.status, 400, nulClient.text);
    assert.equal(nulClient.json().error, 'invalid_client_metadata');
    assert.match(nulClient.json().error_description, /client_name: must not contain the NUL/);
    await stillServing('POST /oauth/register with the NUL character');

    // 2. Past the per-address budget: 429 slow_down with Retry-After, for every endpoint.
    const exhaust = async (
      ip: string,
      path: string,
      type: string,
      body: string,
      admitted: number,
    ) => {
      for (let i = 0; i < admitted; i++) {
        const r = await raw(url(path), {
          method: 'POST',
          headers: from(ip, { 'content-type': type }),
          body,
        });
        assert.notEqual(r.status, 429, `${path} request ${i + 1} of ${admitted} is admitted`);
      }
      const refused = await raw(url(path), {
        method: 'POST',
        headers: from(ip, { 'content-type': type }),
        body,
      });
      assert.equal(refused.status, 429, `${path}: ${refused.status} ${refused.text}`);
      assert.match(refused.headers['retry-after'] ?? '', /^[1-9]\d*$/);
      assert.equal(refused.json().error, 'slow_down');
      assert.match(refused.json().error_description, /Retry in \d+ s/);
      await stillServing(`${path} past the budget`);
    };
    const form = 'application/x-www-form-urlencoded';
    await exhaust(
      '198.51.100.3',
      '/c/acme/oauth/token',
      form,
      'grant_type=refresh_token&refresh_token=hmlt_rt_x&client_id=x',
      PER_IP_PER_MINUTE,
    );
    await exhaust('198.51.100.4', '/c/acme/oauth/revoke', form, 'token=x&client_id=x', 20);
    await exhaust(
      '198.51.100.5',
      '/c/acme/oauth/register',
      'application/json',
      JSON.stringify({ client_name: 'Tool', redirect_uris: ['http://127.0.0.1/cb'] }),
      PER_IP_PER_MINUTE / 10,
    );
  } finally {
    for (const child of started) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      started.map((c) =>
        c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve(),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  }
});
