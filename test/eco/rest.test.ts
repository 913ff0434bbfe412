// What a newcomer's REST client and tools meet: both OpenAPI documents (as an instance with a public
// origin serves them) pass `redocly lint` on its recommended rules and @readme/openapi-parser
// without an error or a warning; every 201 says where the created thing is (Location, in the
// request's own form); a public community's search answers without a key (a private one does not);
// a problem's `type` is a page of this instance; /api/docs renders every operation with nothing
// loaded from anywhere (no script).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { DOMAIN_ERROR_CODES } from '../../src/domain/errors.ts';
import { REST_ROUTES } from '../../src/http/rest/routes.ts';
import { fileHamlet } from '../helpers/in-process.ts';

const hamlet = fileHamlet({ HAMLET_WEBHOOK_DISPATCH: '0' }, { demo: true });
const production = fileHamlet(
  { HAMLET_PUBLIC_ORIGIN: 'https://hamlet.test', HAMLET_WEBHOOK_DISPATCH: '0' },
  { demo: true },
);

const REDOCLY = join(process.cwd(), 'node_modules', '.bin', 'redocly');

/**
 * `redocly lint` on the recommended rules, all of them but `info-license`: Hamlet declares no
 * license (package.json has none), and inventing one in its API document would be false.
 */
function redoclyLint(docs: Record<string, unknown>): { ruleId: string; message: string }[] {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-redocly-'));
  writeFileSync(
    join(dir, 'redocly.yaml'),
    'extends:\n  - recommended\nrules:\n  info-license: off\n',
  );
  const files = Object.entries(docs).map(([name, doc]) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  });
  const run = spawnSync(
    REDOCLY,
    ['lint', ...files, '--config', join(dir, 'redocly.yaml'), '--format=json'],
    {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  // One JSON report per file, one after the other (`}{` between them).
  const text = run.stdout.slice(run.stdout.indexOf('{')).replace(/^\}\{$/gm, '},{');
  const reports = JSON.parse(`[${text}]`) as { problems: { ruleId: string; message: string }[] }[];
  assert.equal(reports.length, files.length, `redocly's reports: ${run.stderr.slice(-2000)}`);
  return reports.flatMap((r) => r.problems);
}

test('both OpenAPI documents pass redocly lint (recommended) and @readme/openapi-parser with no error and no warning', async () => {
  const h = await production();
  const docs = {
    community: (await h.get('acme', '/api/v1/openapi.json')).json(),
    network: (await h.get(null, '/api/v1/openapi.json')).json(),
  };
  assert.equal(
    (docs.community.servers as { url: string }[])[0]!.url,
    'https://acme.hamlet.test/api/v1',
  );
  for (const [name, doc] of Object.entries(docs)) {
    const verdict = await validate(structuredClone(doc));
    assert.ok(verdict.valid, `${name}: ${JSON.stringify(verdict).slice(0, 2000)}`);
    assert.deepEqual(verdict.warnings, [], name);
  }
  const problems = redoclyLint(docs);
  assert.deepEqual(
    problems.map((p) => `${p.ruleId}: ${p.message}`),
    [],
  );
});

test('every 201 carries a Location naming what it created, in the form the request came in', async () => {
  for (const r of REST_ROUTES.filter((r) => r.status === 201))
    assert.ok(r.created, `${r.method.toUpperCase()} ${r.path} answers 201 without a Location`);

  const h = await hamlet();
  const key = await h.agentKey();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const ask = (title: string) =>
    JSON.stringify({
      category: 'support',
      title,
      body: 'Where does the created topic live on this API?',
    });
  for (const [slug, prefix] of [
    ['acme', '/api/v1'],
    [null, '/c/acme/api/v1'],
  ] as const) {
    const made = await h.get(slug, `${slug ? '' : '/c/acme'}/api/v1/topics`, {
      method: 'POST',
      headers,
      body: ask(`Location of a topic asked on ${prefix}`),
    });
    assert.equal(made.status, 201, made.text);
    const topic = made.json().topic.id as string;
    assert.equal(made.headers.location, `${prefix}/topics/${topic}`);
    const read = await h.get(slug ? 'acme' : null, made.headers.location!, { headers });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.json().topic.id, topic);

    const reply = await h.get(slug, `${slug ? '' : '/c/acme'}/api/v1/topics/${topic}/posts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ body: 'It lives at the Location header.' }),
    });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(
      reply.headers.location,
      `${prefix}/topics/${topic}#post-${reply.json().post.id as string}`,
    );
  }
});

test("a public community's search answers without a key, charged to the address; a private one's does not", async () => {
  const h = await hamlet();
  for (const [slug, path] of [
    ['acme', '/api/v1/search?q=postgres'],
    [null, '/c/acme/api/v1/search?q=postgres'],
  ] as const) {
    const open = await h.get(slug, path);
    assert.equal(open.status, 200, open.text);
    assert.ok(open.json().results.length > 0, open.text);
    assert.match(open.headers.ratelimit ?? '', /"ip";r=\d+/);
  }
  const hidden = await h.get('skunkworks', '/api/v1/search?q=postgres');
  assert.equal(hidden.status, 404, hidden.text);
  assert.equal(hidden.json().code, 'not_found');
  // Reads that the web does not open to visitors still want a key.
  assert.equal((await h.get('acme', '/api/v1/approvals')).status, 401);
});

test("a problem's type is this instance's page for its code, on every host form", async () => {
  const h = await hamlet();
  for (const [slug, path] of [
    ['acme', '/api/v1/approvals'],
    [null, '/c/acme/api/v1/approvals'],
    [null, '/api/v1/me/keys'],
  ] as const) {
    const failed = await h.get(slug, path);
    assert.equal(failed.status, 401, failed.text);
    const type = failed.json().type as string;
    assert.equal(type, '/api/problems/unauthorized');
    const page = await h.get(slug, new URL(type, `http://x${path}`).pathname);
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /^Hamlet error code: unauthorized\n/);
    assert.match(page.text, /HTTP 401/);
  }
  for (const code of DOMAIN_ERROR_CODES) {
    const page = await h.get(null, `/api/problems/${code}`);
    assert.equal(page.status, 200, code);
    assert.match(page.text, new RegExp(`What to do: `));
  }
  const index = await h.get('acme', '/api/problems');
  for (const code of DOMAIN_ERROR_CODES) assert.ok(index.text.includes(`/api/problems/${code}`));
  assert.equal((await h.get(null, '/api/problems/no_such_code')).status, 404);
});

test('/api/docs renders every operation here, with no script and nothing from another origin', async () => {
  const h = await hamlet();
  for (const [slug, base] of [
    ['acme', ''],
    [null, '/c/acme'],
  ] as const) {
    const page = await h.get(slug, `${base}/api/docs`);
    assert.equal(page.status, 200, page.text);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
    const csp = page.headers['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /https?:|script-src/, csp);
    assert.doesNotMatch(page.text, /<script|<link /);
    assert.doesNotMatch(page.text, /(src|href)="https?:/);
    // Every community route is there, by its operation id, with what it answers.
    const doc = (await h.get(slug, `${base}/api/v1/openapi.json`)).json();
    for (const item of Object.values(doc.paths) as Record<string, { operationId: string }>[])
      for (const op of Object.values(item))
        assert.ok(page.text.includes(`id="${op.operationId}"`), op.operationId);
    assert.match(page.text, /<code>\/topics\/\{topic\}<\/code>/);
    assert.match(page.text, /<h2 id="webhooks">Webhooks<\/h2>/);
    assert.ok(page.text.includes(`<code>${doc.servers[0].url}</code>`), 'in its own form');
    assert.match(page.text, /<a href="v1\/openapi\.json">/);
  }
  const network = await h.get(null, '/api/docs');
  assert.equal(network.status, 200);
  assert.match(network.text, /id="search_network"/);
});
