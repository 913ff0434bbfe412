// The configuration refuses what it would otherwise silently ignore: an unknown HAMLET_* variable
// stops the start (the CLI's too) and names the setting that was probably meant; every HAMLET_*
// name the repository uses is a setting or a tool's own; every setting is in the README's table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, SETTING_NAMES } from './config.ts';
import { TOOLING_VARIABLES } from './unknown-variables.ts';

const DB = 'sqlite:/var/lib/hamlet/hamlet.db';

test('DATABASE_URL is required in production (NODE_ENV=production or a public origin); locally the default stays', () => {
  assert.throws(
    () => loadConfig({ NODE_ENV: 'production' }),
    /DATABASE_URL is not set \(NODE_ENV=production\): set it/,
  );
  assert.throws(
    () => loadConfig({ HAMLET_PUBLIC_ORIGIN: 'https://forum.example.test' }),
    /DATABASE_URL is not set \(HAMLET_PUBLIC_ORIGIN is set\)/,
  );
  assert.equal(loadConfig({ NODE_ENV: 'production', DATABASE_URL: DB }).databaseUrl, DB);
  assert.equal(loadConfig({}).databaseUrl, 'sqlite:./data/hamlet.db');
});

test('a near miss of DATABASE_URL, or a Hamlet setting in lower case, is refused with the name meant', () => {
  assert.throws(
    () => loadConfig({ DATABSE_URL: DB }),
    /DATABSE_URL is not a Hamlet setting: did you mean DATABASE_URL\?/,
  );
  assert.throws(
    () => loadConfig({ database_url: DB }),
    /database_url is not a Hamlet setting: did you mean DATABASE_URL\?/,
  );
  assert.throws(
    () => loadConfig({ hamlet_signup: 'closed' }),
    /hamlet_signup is not a Hamlet setting: did you mean HAMLET_SIGNUP\?/,
  );
  assert.throws(
    () => loadConfig({ Hamlet_Signups: 'closed' }),
    /Hamlet_Signups is not a Hamlet setting: did you mean HAMLET_SIGNUP\?/,
  );
  // Other variables of the environment are not Hamlet's business.
  assert.equal(loadConfig({ DATA_DIR: '/x', PATH: '/bin', HOME: '/root' }).port, 8787);
});

test('a misspelled HAMLET_* variable is refused with "did you mean …"', () => {
  assert.throws(
    () => loadConfig({ HAMLET_SIGNUPS: 'closed' }),
    /HAMLET_SIGNUPS is not a Hamlet setting: did you mean HAMLET_SIGNUP\?/,
  );
  assert.throws(
    () => loadConfig({ HAMLET_WEBHOOK_TIMEOUT: '5000' }),
    /did you mean HAMLET_WEBHOOK_TIMEOUT_MS\?/,
  );
  assert.throws(
    () => loadConfig({ HAMLET_COLOUR: 'blue' }),
    (err: Error) => {
      assert.match(err.message, /HAMLET_COLOUR is not a Hamlet setting/);
      assert.doesNotMatch(err.message, /did you mean/);
      return true;
    },
  );
  // Every problem is listed at once, the unknown name beside an invalid value.
  assert.throws(
    () => loadConfig({ HAMLET_SIGNUPS: 'closed', HAMLET_SIGNUP: 'maybe' }),
    (err: Error) => /HAMLET_SIGNUPS/.test(err.message) && /HAMLET_SIGNUP: /.test(err.message),
  );
  // Other programs' variables and Hamlet's own tooling are not Hamlet's business.
  assert.equal(loadConfig({ HOME: '/root', HAMLET_TEST_PG_PORT: '54329' }).people.signUp, true);
});

test('`hamlet serve` with a misspelled variable does not start, and says what was meant', async () => {
  const child = spawn(process.execPath, ['bin/hamlet.js', 'serve'], {
    env: {
      PATH: process.env.PATH,
      HAMLET_SIGNUPS: 'closed',
      DATABASE_URL: 'sqlite::memory:',
      HOST: '127.0.0.1',
      PORT: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  // A start that is not refused would serve forever: it is ended after the deadline.
  const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(deadline);
  assert.equal(code, 1, stderr);
  assert.match(stderr, /did you mean HAMLET_SIGNUP\?/);
  assert.doesNotMatch(stderr, /Hamlet is running/);
});

test('the PostgreSQL pool size and connect timeout are settings', () => {
  const none = { replicaUrls: [], replicaMaxLagMs: 3000 };
  assert.deepEqual(loadConfig({}).postgres, { poolSize: 10, connectTimeoutMs: 5000, ...none });
  assert.deepEqual(
    loadConfig({ HAMLET_PG_POOL_SIZE: '25', HAMLET_PG_CONNECT_TIMEOUT_MS: '1500' }).postgres,
    { poolSize: 25, connectTimeoutMs: 1500, ...none },
  );
  assert.throws(() => loadConfig({ HAMLET_PG_POOL_SIZE: '0' }), /HAMLET_PG_POOL_SIZE/);
});

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|mjs|js|sh|md)$/.test(name)) out.push(path);
  }
  return out;
}

test('HAMLET_PUBLIC_ORIGIN: the origin every URL is built on; its host is the base domain, its scheme the public scheme', () => {
  const c = loadConfig({
    HAMLET_PUBLIC_ORIGIN: 'https://Forum.Example.test/',
    PORT: '56445',
    DATABASE_URL: DB,
  });
  assert.equal(c.publicOrigin, 'https://forum.example.test');
  assert.equal(c.baseDomain, 'forum.example.test');
  assert.equal(c.publicScheme, 'https');
  assert.equal(
    loadConfig({ HAMLET_PUBLIC_ORIGIN: 'http://h.test:8080', DATABASE_URL: DB }).publicOrigin,
    'http://h.test:8080',
  );
  assert.equal(loadConfig({}).publicOrigin, undefined);
  for (const bad of [
    'forum.example.test',
    'ftp://h.test',
    'https://h.test/forum',
    'https://10.0.0.1',
  ])
    assert.throws(
      () => loadConfig({ HAMLET_PUBLIC_ORIGIN: bad }),
      /HAMLET_PUBLIC_ORIGIN must be/,
      bad,
    );
  assert.throws(
    () => loadConfig({ HAMLET_PUBLIC_ORIGIN: 'https://a.test', HAMLET_BASE_DOMAIN: 'b.test' }),
    /HAMLET_BASE_DOMAIN must be HAMLET_PUBLIC_ORIGIN's host/,
  );
  assert.throws(
    () => loadConfig({ HAMLET_PUBLIC_ORIGIN: 'https://a.test', HAMLET_PUBLIC_SCHEME: 'http' }),
    /HAMLET_PUBLIC_SCHEME must be HAMLET_PUBLIC_ORIGIN's scheme/,
  );
});

test('every HAMLET_* name in the repository is a setting (in the README) or a tool’s own', () => {
  const readme = readFileSync('README.md', 'utf8');
  const used = new Map<string, string>();
  for (const path of [...files('src'), ...files('test'), ...files('scripts'), ...files('bench')])
    for (const [name] of readFileSync(path, 'utf8').matchAll(/\bHAMLET_[A-Z0-9_]*[A-Z0-9]\b/g))
      if (!used.has(name)) used.set(name, path);
  const refused: string[] = [];
  for (const [name, path] of used) {
    if (TOOLING_VARIABLES.has(name)) continue;
    try {
      loadConfig({ [name]: '1' });
    } catch (err) {
      // A test of the refusal itself uses misspelled names on purpose.
      const deliberate = /did you mean|not a Hamlet setting/.test(readFileSync(path, 'utf8'));
      if (/is not a Hamlet setting/.test((err as Error).message) && !deliberate)
        refused.push(`${name} (${path})`);
    }
  }
  assert.deepEqual(refused, [], 'names no configuration reads');
  const settings = [...used.keys()].filter((n) => {
    if (TOOLING_VARIABLES.has(n)) return false;
    try {
      loadConfig({ [n]: '1' });
    } catch (err) {
      return !/is not a Hamlet setting/.test((err as Error).message);
    }
    return true;
  });
  const undocumented = settings.filter((n) => !readme.includes(`\`${n}\``));
  assert.deepEqual(undocumented, [], 'settings missing from the README configuration table');
});

test('every setting is in the README table and in docs/operations.md’s environment file', () => {
  const readme = readFileSync('README.md', 'utf8');
  const operations = readFileSync('docs/operations.md', 'utf8');
  const envFile = /```sh\n# \/etc\/hamlet\/hamlet\.env\n([\s\S]*?)```/.exec(operations)?.[1] ?? '';
  assert.ok(
    envFile,
    'docs/operations.md has the environment file block (# /etc/hamlet/hamlet.env)',
  );
  const listed = new Set([...envFile.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
  assert.deepEqual(
    SETTING_NAMES.filter((n) => !readme.includes(`\`${n}\``)),
    [],
    'settings missing from the README configuration table',
  );
  assert.deepEqual(
    SETTING_NAMES.filter((n) => !listed.has(n)),
    [],
    'settings missing from the environment file in docs/operations.md',
  );
});
