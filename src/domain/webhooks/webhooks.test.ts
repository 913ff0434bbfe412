// Unit tests of the webhook rules: which addresses are refused, the backoff schedule, signatures
// (checked against the standardwebhooks library) and their verification, secrets sealed at rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import {
  bareHost,
  isBlockedAddress,
  isLocalName,
  isPrivateByName,
} from '../../outbound/addresses.ts';
import { DEFAULT_RETRY, retryDelayMs } from './backoff.ts';
import { SecretBox } from './secret-box.ts';
import { newWebhookSecret, signatureHeaders, verifySignature } from './signing.ts';

test('loopback, private, link-local, metadata and reserved addresses are refused; public ones pass', () => {
  for (const ip of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::1',
    'ff02::1',
    'not-an-ip',
  ]) {
    assert.equal(isBlockedAddress(ip), true, ip);
  }
  for (const ip of [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
  ])
    assert.equal(isBlockedAddress(ip), false, ip);
  assert.equal(isLocalName('localhost'), true);
  assert.equal(isLocalName('acme.localhost.'), true);
  assert.equal(isLocalName('metadata.google.internal'), true);
  assert.equal(isLocalName('example.com'), false);
});

test('a URL is private by its very name or literal address, in every form the URL parser accepts', () => {
  const privateHost = (url: string) => isPrivateByName(bareHost(new URL(url)));
  for (const url of [
    'http://localhost:8080/h',
    'https://acme.localhost/h',
    'http://127.0.0.1/h',
    'http://[::1]/h',
    'http://169.254.169.254/latest',
    'http://0x7f.1/h',
    'http://2130706433/h',
    'http://[::ffff:127.0.0.1]/h',
    'https://metadata.google.internal/',
  ]) {
    assert.equal(privateHost(url), true, url);
  }
  // A public name is judged on what it resolves to, at each delivery, not here.
  for (const url of [
    'https://example.com/h',
    'https://8.8.8.8/h',
    'https://[2606:4700:4700::1111]/h',
  ])
    assert.equal(privateHost(url), false, url);
});

test('backoff doubles from the base with ±20% jitter, caps, and spans about a day', () => {
  assert.equal(
    retryDelayMs(1, DEFAULT_RETRY, () => 0.5),
    60_000,
  );
  assert.equal(
    retryDelayMs(2, DEFAULT_RETRY, () => 0.5),
    120_000,
  );
  assert.equal(
    retryDelayMs(1, DEFAULT_RETRY, () => 0),
    48_000,
  );
  assert.equal(
    retryDelayMs(1, DEFAULT_RETRY, () => 1),
    72_000,
  );
  assert.equal(
    retryDelayMs(12, DEFAULT_RETRY, () => 0.5),
    DEFAULT_RETRY.maxDelayMs,
  );
  assert.equal(retryDelayMs(DEFAULT_RETRY.maxAttempts, DEFAULT_RETRY), null);
  let total = 0;
  for (let a = 1; a < DEFAULT_RETRY.maxAttempts; a++)
    total += retryDelayMs(a, DEFAULT_RETRY, () => 0.5)!;
  assert.ok(total > 20 * 3_600_000 && total < 28 * 3_600_000, `${total / 3_600_000} h`);
});

test('both signatures: the standardwebhooks library verifies ours; ours says why a request fails', () => {
  const secret = newWebhookSecret();
  const old = newWebhookSecret();
  const body = JSON.stringify({ id: 'e1', type: 'topic.created', data: { a: 'é' } });
  const t = Math.floor(Date.now() / 1000);
  const headers = signatureHeaders({
    secrets: [secret, old],
    deliveryId: 'msg_1',
    event: 'topic.created',
    timestamp: t,
    body,
  });
  assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
  assert.deepEqual(new Webhook(old).verify(body, headers), JSON.parse(body));
  assert.deepEqual(verifySignature(secret, headers, body), { ok: true, scheme: 'hamlet' });
  assert.deepEqual(verifySignature(old, { ...headers, 'hamlet-signature': undefined }, body), {
    ok: true,
    scheme: 'standard',
  });
  const wrong = verifySignature(newWebhookSecret(), headers, body);
  assert.equal(wrong.ok, false);
  assert.match((wrong as { reason: string }).reason, /does not match/);
  assert.match(
    (verifySignature(secret, headers, body + ' ') as { reason: string }).reason,
    /body was changed/,
  );
  assert.match(
    (verifySignature(secret, headers, body, t + 301) as { reason: string }).reason,
    /more than 300 s/,
  );
  assert.match((verifySignature(secret, {}, body) as { reason: string }).reason, /neither/);
});

test('secrets are sealed with AES-256-GCM and only open under the same key', async () => {
  const box = new SecretBox({ name: 'env', secret: 'x'.repeat(40) });
  const sealed = await box.seal('whsec_abc');
  assert.match(sealed, /^v1:env:/);
  assert.ok(!sealed.includes('whsec_abc'));
  assert.equal(await box.open(sealed), 'whsec_abc');
  await assert.rejects(
    new SecretBox({ name: 'env', secret: 'y'.repeat(40) }).open(sealed),
    /cannot be decrypted/,
  );
  await assert.rejects(
    new SecretBox({ name: 'db', load: async () => SecretBox.newKey() }).open(sealed),
    /HAMLET_WEBHOOK_SECRET_KEY/,
  );
});
