// The environment file of docs/operations.md, every setting uncommented, loads the way the docs
// load it for the CLI, the backup job and the mail pipe (`set -a; . hamlet.env; set +a` in sh):
// no line breaks the shell (an unquoted `Hamlet <hamlet@…>` did), every value arrives as written,
// and the configuration it makes is accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.ts';

/**
 * The documented file, with each commented-out setting (`# NAME=value`) turned on, but for the
 * alternatives to one already on (the SQLite DATABASE_URL) and those shown without a value.
 */
function documentedEnvFile(): string {
  const doc = readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8');
  const m = /```sh\n(# \/etc\/hamlet\/hamlet\.env\n[\s\S]*?)```/.exec(doc);
  assert.ok(m, 'docs/operations.md shows /etc/hamlet/hamlet.env');
  return m[1]!.replace(/^# ((?!DATABASE_URL=)[A-Z][A-Z0-9_]*=.)/gm, '$1');
}

test('the documented environment file loads with `set -a; .` and makes a valid configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-env-file-'));
  try {
    const file = join(dir, 'hamlet.env');
    writeFileSync(file, documentedEnvFile());
    const out = execFileSync('sh', ['-c', `set -a; . "${file}"; set +a; env -0`], {
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
    });
    const env = Object.fromEntries(
      out
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
    assert.equal(env.HAMLET_MAIL_FROM, 'Hamlet <hamlet@forum.example.com>');
    assert.match(env.DATABASE_URL ?? '', /^postgres:\/\//);
    assert.equal(env.HAMLET_SMTP_URL, 'smtp://127.0.0.1:25', 'commented settings were turned on');
    const settings = Object.fromEntries(
      Object.entries(env).filter(([k]) =>
        /^(HAMLET_|DATABASE_URL$|PORT$|HOST$|LOG_LEVEL$)/.test(k),
      ),
    );
    const config = loadConfig(settings);
    assert.equal(config.mail.from, 'Hamlet <hamlet@forum.example.com>');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
