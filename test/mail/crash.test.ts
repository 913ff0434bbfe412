// A mail survives `kill -9`: the server queues a verification mail and starts sending it, the SMTP
// server takes the message but has not answered when the process is killed; the restarted server
// sends the mail (nothing lost) under the Message-ID it was queued with (a receiver deduplicates it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/open.ts';
import { freePort, serveProcess } from '../helpers/serve.ts';
import { sqliteFromTemplate } from '../helpers/template.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';
import { waitFor } from '../helpers/wait.ts';
import { WebClient } from '../web/client.ts';

test('a server killed with SIGKILL mid-send loses no mail; the restarted one sends it with the same Message-ID', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-mail-crash-'));
  const file = join(dir, 'hamlet.db');
  await sqliteFromTemplate(file, 'migrated');
  const sink = await startSmtpSink();
  const started: ChildProcess[] = [];
  try {
    const port = await freePort();
    const env = {
      DATABASE_URL: `sqlite:${file}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      HAMLET_SMTP_URL: sink.url,
      // A short send deadline: the dead instance's lease (twice it and a second) runs out soon.
      HAMLET_MAIL_TIMEOUT_MS: '500',
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
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const db = await openDatabase(`sqlite:${file}`, { migrate: false });
    const queued = (await db.store.mail.list({ limit: 5 })).items;
    await db.store.close();
    assert.equal(queued.length, 1);
    assert.equal(queued[0]!.status, 'pending', 'not marked sent: the server died first');

    sink.hold(false);
    const second = await serveProcess(env, { started });
    const mail = await sink.next('kim@example.org', /Confirm/, 20_000);
    assert.equal(mail.messageId, queued[0]!.messageId, 'the same Message-ID as queued');
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
    const after = await openDatabase(`sqlite:${file}`, { migrate: false });
    const row = (await after.store.mail.get(queued[0]!.id))!;
    await after.store.close();
    assert.equal(row.status, 'sent');
    assert.equal(row.attempts, 2);
    assert.equal(sink.mails.length, 1, 'delivered once to the mailbox');
  } finally {
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await sink.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});
