// `hamlet check` on a healthy install passes (exit 0, every item ok or a warning) and on a broken
// one names each broken part with what to fix (exit 1): a database without Hamlet's schema, an SMTP
// server that does not answer, a public origin nothing answers on, and (with PostgreSQL) a
// database that cannot be reached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';
import { freePort } from '../helpers/serve.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';
import { sqliteFromTemplate } from '../helpers/template.ts';

/** The lines of the output, by item: "ok", "warn" or "fail" and what it says. */
function items(out: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of out.split('\n')) {
    const r = /^(ok|warn|fail)\s+([^:]+): (.*)$/.exec(line);
    if (r) m.set(r[2]!, `${r[1]} ${r[3]}`);
  }
  return m;
}

test('a healthy install passes every check (exit 0)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-check-'));
  const smtp = await startSmtpSink();
  const origin = createServer((req, res) =>
    res.writeHead(req.url === '/heartbeat' ? 200 : 404).end(),
  );
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
  try {
    const file = join(dir, 'hamlet.db');
    await sqliteFromTemplate(file, 'migrated');
    const port = (origin.address() as { port: number }).port;
    const r = await runCli(['check'], {
      DATABASE_URL: `sqlite:${file}`,
      HAMLET_SMTP_URL: smtp.url,
      HAMLET_PUBLIC_ORIGIN: `http://localhost:${port}`,
      HAMLET_METRICS_PORT: '9464',
    });
    const said = items(r.out);
    assert.equal(r.code, 0, r.out + r.err);
    for (const item of ['configuration', 'database', 'migrations', 'database writes', 'mail'])
      assert.match(said.get(item) ?? '', /^ok /, `${item}: ${said.get(item)}`);
    assert.match(said.get('public origin') ?? '', /^ok .*\/heartbeat answers 200/);
    assert.match(said.get('disk (database file)') ?? '', /^(ok|fail) .* GiB free/);
    assert.match(r.out, /Every check passed\.|check\(s\) failed/);
  } finally {
    origin.close();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a broken install names each broken part and what to fix (exit 1)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-check-'));
  try {
    const file = join(dir, 'empty.db');
    writeFileSync(file, '');
    const closed = await freePort();
    const r = await runCli(['check'], {
      DATABASE_URL: `sqlite:${file}`,
      HAMLET_SMTP_URL: `smtp://127.0.0.1:${closed}`,
      HAMLET_PUBLIC_ORIGIN: `http://localhost:${closed}`,
    });
    const said = items(r.out);
    assert.equal(r.code, 1, r.out);
    assert.match(
      said.get('migrations') ?? '',
      /^fail .*no Hamlet schema yet: run `hamlet migrate`/,
    );
    assert.match(
      said.get('mail') ?? '',
      /^fail cannot reach 127\.0\.0\.1:\d+: .*Check HAMLET_SMTP_URL/,
    );
    assert.match(said.get('public origin') ?? '', /^fail .*cannot be reached from here/);
    assert.match(r.out, /\d check\(s\) failed\./);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a configuration that does not load, and a PostgreSQL database that cannot be reached', async () => {
  const bad = await runCli(['check'], {
    DATABASE_URL: 'sqlite::memory:',
    HAMLET_SIGNUPS: 'closed',
  });
  assert.equal(bad.code, 1);
  assert.match(bad.out, /^fail\s+configuration: .*did you mean HAMLET_SIGNUP\?/m);
  const url = process.env.TEST_POSTGRES_URL;
  if (!url) return;
  const missing = new URL(url);
  missing.pathname = '/no_such_database_here';
  const r = await runCli(['check'], { DATABASE_URL: missing.toString() });
  assert.equal(r.code, 1);
  assert.match(
    r.out,
    /^fail\s+database: cannot be reached: .*no_such_database_here.*Check DATABASE_URL/m,
  );
});
