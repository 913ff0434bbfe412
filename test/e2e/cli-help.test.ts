// The `hamlet` command's own manners, spawned as an operator runs it (the bundled CLI): usage for
// every command through `--help` and `hamlet help <command>` (without touching a database),
// `--version`, and a reader that closes the pipe early ends the command quietly with exit 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commands } from '../../src/cli/commands.ts';
import { HelpRequested } from '../../src/cli/errors.ts';
import { VERSION } from '../../src/version.ts';
import { runCli } from '../helpers/cli.ts';
import { hamletArgs } from '../helpers/hamlet-bin.ts';

// A database that does not exist: help must not open (or create) it.
const env = {
  DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'hamlet-help-')), 'none', 'x.db')}`,
};

test('--version prints the version', async () => {
  const r = await runCli(['--version'], env);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.trim(), VERSION);
});

test('every command has a usage that --help prints before anything runs', async () => {
  // In process: a command without its own usage answers --help from its option parser at once.
  for (const c of commands) {
    if (c.usage) continue;
    await assert.rejects(c.run(['--help']), HelpRequested, c.name);
  }
  // Spawned: one command of each kind, both ways of asking.
  const some = ['serve', 'category delete'];
  const results = await Promise.all(
    some.flatMap((name) => [
      runCli([...name.split(' '), '--help'], env).then((r) => ({ name, r, how: '--help' })),
      runCli(['help', ...name.split(' ')], env).then((r) => ({ name, r, how: 'help' })),
    ]),
  );
  for (const { name, r, how } of results) {
    assert.equal(r.code, 0, `${name} ${how}: ${r.err}`);
    assert.match(r.out, new RegExp(`^Usage: hamlet ${name}\\b`), `${name} ${how}`);
    assert.equal(r.err, '', `${name} ${how}`);
  }
  assert.match(results.find((x) => x.name === 'serve')!.r.out, /--demo/);
  assert.match(results.find((x) => x.name === 'category delete')!.r.out, /--move-to <category>/);
  const unknown = await runCli(['help', 'no', 'such'], env);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown command "no such"/);
  const list = await runCli(['--help'], env);
  assert.match(list.out, /hamlet help <command>/);
  assert.match(list.out, /hamlet category delete/);
});

test('a closed pipe ends a command quietly with exit 0', async () => {
  const args = await hamletArgs();
  const child = spawn(process.execPath, [...args, 'help', 'category', 'create'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The reader goes away before the command prints anything.
  child.stdout.destroy();
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(err, '', 'no stack trace');
  assert.equal(code, 0);
});
