// SIGTERM during a stalled SMTP send ends the process within HAMLET_SEND_STOP_WAIT_MS (not the
// send's 30 s timeout): the dispatcher stops claiming at once, gives the send its short wait, then
// interrupts it and leaves the mail in the outbox, due at once and its attempt not counted. The
// next instance sends it at its first turn (no lease to wait out), once, under the Message-ID it
// was queued with. A real `hamlet serve` and a real SMTP server on loopback, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/open.ts';
import { freePort, serveProcess } from '../helpers/serve.ts';
import { postgresFromTemplate, sqliteFromTemplate } from '../helpers/template.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';
import { waitFor } from '../helpers/wait.ts';
import { WebClient } from '../web/client.ts';

const STOP_WAIT_MS = 1_500;

async function mailRows(url: string) {
  const db = await openDatabase(url, { migrate: false });
  try {
    return (await db.store.mail.list({ limit: 5 })).items;
  } finally {
    await db.store.close();
  }
}

async function stopMidSend(url: string): Promise<void> {
  const sink = await startSmtpSink();
  const started: ChildProcess[] = [];
  try {
    const port = await freePort();
    const env = {
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      HAMLET_SMTP_URL: sink.url,
      HAMLET_MAIL_TIMEOUT_MS: '30000',
      HAMLET_SEND_STOP_WAIT_MS: String(STOP_WAIT_MS),
    };
    sink.hold(true);
    const first = await serveProcess(env, { started });
    const client = new WebClient(`http://localhost:${port}`);
    await client.get('/signup');
    const res = await client.post('/signup', {
      name: 'Kim',
      email: 'kim@example.org',
      password: 'correct horse battery',
    });
    assert.equal(res.status, 200);
    await waitFor(() => sink.held >= 1, { timeoutMs: 15_000, message: 'the send in flight' });

    const exited = new Promise<number | null>((r) => first.child.once('exit', (code) => r(code)));
    const began = performance.now();
    first.child.kill('SIGTERM');
    const code = await exited;
    const tookMs = performance.now() - began;
    assert.equal(code, 0, 'a clean exit');
    // The wait, then the HTTP server's close and the database's: well under systemd's 30 s.
    assert.ok(tookMs >= STOP_WAIT_MS - 100, `it waited for the send first (${tookMs} ms)`);
    assert.ok(tookMs < STOP_WAIT_MS + 4_000, `it ended within the bound (${tookMs} ms)`);

    const [queued] = await mailRows(url);
    assert.ok(queued);
    assert.deepEqual(
      [queued.status, queued.attempts],
      ['pending', 0],
      'left, untried, in the outbox',
    );

    sink.hold(false);
    const second = await serveProcess(env, { started });
    // Due at once: far sooner than the interrupted claim's lease (twice the timeout and a second).
    const mail = await sink.next('kim@example.org', /Confirm/, 15_000);
    assert.equal(mail.messageId, queued.messageId, 'the same Message-ID as queued');
    const stopped = new Promise((r) => second.child.once('exit', r));
    second.child.kill('SIGTERM');
    await stopped;
    const [row] = await mailRows(url);
    assert.deepEqual([row!.status, row!.attempts], ['sent', 1]);
    assert.equal(sink.mails.length, 1, 'delivered once');
  } finally {
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await sink.close().catch(() => undefined);
  }
}

test('SIGTERM mid-send: bounded stop, the mail sent once by the next instance (sqlite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-mail-stop-'));
  try {
    const file = join(dir, 'hamlet.db');
    await sqliteFromTemplate(file, 'migrated');
    await stopMidSend(`sqlite:${file}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const pg = await postgresFromTemplate('mailstop', 'migrated');
test(
  'SIGTERM mid-send: bounded stop, the mail sent once by the next instance (postgres)',
  { skip: !pg.ok && !pg.fail && pg.reason },
  async () => {
    if (!pg.ok) return assert.fail(pg.reason);
    try {
      await stopMidSend(pg.url);
    } finally {
      await pg.drop();
    }
  },
);
