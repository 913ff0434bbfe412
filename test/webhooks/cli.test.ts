// `hamlet webhook …` as an operator runs it against a live server: add prints the id and the
// secret once, the server then delivers to the endpoint (seen in `deliveries`), redeliver queues it
// again, remove deletes it; `verify` accepts a saved request and says why a tampered one fails.
// The operator adds a loopback receiver from a shell without HAMLET_WEBHOOK_ALLOW_PRIVATE: the
// server, which allows it, delivers there (the command says whose setting decides).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemActor } from '../../src/domain/actor.ts';
import { signatureHeaders } from '../../src/domain/webhooks/signing.ts';
import { runCli } from '../helpers/cli.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { Receiver, waitFor } from './receiver.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-whcli-'));
const env = { DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`, HAMLET_WEBHOOK_ALLOW_PRIVATE: '1' };
let h: TestHamlet;
let rx: Receiver;
const hamlet = (...args: string[]) => runCli(args, env);

before(async () => {
  rx = await new Receiver().start();
  h = await startTestHamlet(env, { keepDatabase: true });
  const acme = await h.store.communities.create({
    slug: 'acme',
    name: 'Acme',
    visibility: 'public',
  });
  await h.services.categories.create(systemActor('test'), acme, {
    slug: 'support',
    name: 'Support',
  });
});
after(async () => {
  await h?.stop();
  await rx?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('add, list, deliveries, redeliver, remove', async () => {
  const added = await hamlet(
    'webhook',
    'add',
    '--community',
    'acme',
    '--url',
    rx.url('/cli'),
    '--events',
    'topic.created',
    '--description',
    'ops channel',
  );
  assert.equal(added.code, 0, added.err);
  const id = /endpoint: (\S+)/.exec(added.out)![1]!;
  assert.match(added.out, /secret: +whsec_/);
  assert.match(
    (await hamlet('webhook', 'list', '--community', 'acme')).out,
    new RegExp(`${id}  ${rx.url('/cli')}  topic.created  active  "ops channel"`),
  );

  const acme = (await h.store.communities.getBySlug('acme'))!;
  await writeApplied(h.services.writes, systemActor('test'), acme, 'topic.create', {
    category: 'support',
    title: 'A topic for the CLI hook',
    body: 'Delivered to the endpoint the CLI added.',
  });
  await waitFor(() => rx.at('/cli').length === 1, 10_000, 'the delivery');
  await waitFor(
    async () =>
      (await h.services.webhooks.deliveries(systemActor('test'), acme, id)).deliveries[0]
        ?.status === 'delivered',
    10_000,
    'the log to say delivered',
  );
  const log = (await hamlet('webhook', 'deliveries', '--community', 'acme', '--id', id)).out;
  const delivery = log.split(/\s+/)[0]!;
  assert.match(log, /topic\.created +delivered +attempts 1/);
  const again = await hamlet('webhook', 'redeliver', '--community', 'acme', '--delivery', delivery);
  assert.equal(again.code, 0, again.err);
  await waitFor(() => rx.at('/cli').length === 2, 10_000, 'the redelivery');
  assert.equal(rx.at('/cli')[1]!.headers['webhook-id'], delivery);
  assert.equal((await hamlet('webhook', 'remove', '--community', 'acme', '--id', id)).code, 0);
  assert.match(
    (await hamlet('webhook', 'list', '--community', 'acme')).out,
    /No webhook endpoints/,
  );
});

test("webhook add takes a loopback receiver without the variable in the operator's shell; the server decides", async () => {
  const shell = { DATABASE_URL: env.DATABASE_URL, HAMLET_WEBHOOK_ALLOW_PRIVATE: '0' };
  const added = await runCli(
    [
      'webhook',
      'add',
      '--community',
      'acme',
      '--url',
      rx.url('/shell'),
      '--events',
      'topic.created',
    ],
    shell,
  );
  assert.equal(added.code, 0, added.err);
  assert.match(
    added.out,
    /only while it runs with HAMLET_WEBHOOK_ALLOW_PRIVATE=1/,
    'the command says whose setting decides',
  );
  const acme = (await h.store.communities.getBySlug('acme'))!;
  await writeApplied(h.services.writes, systemActor('test'), acme, 'topic.create', {
    category: 'support',
    title: 'A topic for the hook added from a plain shell',
    body: 'The server allows loopback receivers.',
  });
  await waitFor(() => rx.at('/shell').length >= 1, 10_000, 'the delivery');
  const id = /endpoint: (\S+)/.exec(added.out)![1]!;
  assert.equal(
    (await runCli(['webhook', 'remove', '--community', 'acme', '--id', id], shell)).code,
    0,
  );
});

test('verify says VALID for a saved request and why a tampered one is not', async () => {
  const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
  const body = '{"id":"e1","type":"post.created","data":{}}';
  const headers = signatureHeaders({
    secrets: [secret],
    deliveryId: 'd-1',
    event: 'post.created',
    timestamp: Math.floor(Date.now() / 1000),
    body,
  });
  const saved = (b: string) =>
    `POST /hook HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n${b}`;
  writeFileSync(join(dir, 'ok.http'), saved(body));
  writeFileSync(join(dir, 'bad.http'), saved(body.replace('e1', 'e2')));
  const ok = await hamlet(
    'webhook',
    'verify',
    '--request',
    join(dir, 'ok.http'),
    '--secret',
    secret,
  );
  assert.equal(ok.code, 0, ok.err);
  assert.match(
    ok.out,
    /^VALID: the hamlet-signature matches \(event post\.created, delivery d-1\)/,
  );
  const bad = await hamlet(
    'webhook',
    'verify',
    '--request',
    join(dir, 'bad.http'),
    '--secret',
    secret,
  );
  assert.equal(bad.code, 1);
  assert.match(bad.out, /INVALID: .*body was changed/);
});
