// Webhooks to addresses that are not public, on both engines: an IPv6 literal that carries a
// loopback IPv4 address (IPv4-compatible, IPv4-translated, IPv4-mapped, NAT64, 6to4) is refused when
// the endpoint is registered, like 127.0.0.1 is; and a delivery whose name resolves to a private
// address when it is sent fails at once, with the reason in the delivery log, and is not retried.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import { eachEngine } from '../security/engines.ts';
import { startRestFixture } from '../rest/fixture.ts';

/** A name that was public when the endpoint was registered and now resolves to loopback. */
const REBOUND = 'rebound.example.test';
const lookup = dns.lookup;
(dns as { lookup: unknown }).lookup = (
  hostname: string,
  options: unknown,
  callback: (...args: unknown[]) => void,
) => {
  if (hostname !== REBOUND)
    return (lookup as (...a: unknown[]) => void)(hostname, options, callback);
  const all = typeof options === 'object' && (options as { all?: boolean }).all;
  process.nextTick(() =>
    all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4),
  );
};

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

eachEngine('webhooks to non-public addresses are refused once and for all', async (engine) => {
  const f = await startRestFixture({
    ...engine.env,
    HAMLET_WEBHOOK_RETRY_BASE_MS: '50',
    HAMLET_WEBHOOK_MAX_ATTEMPTS: '4',
    HAMLET_WEBHOOK_TIMEOUT_MS: '2000',
  });
  try {
    const owner = { key: f.keys.owner };
    for (const host of [
      '[::127.0.0.1]',
      '[::ffff:0:127.0.0.1]',
      '[::ffff:127.0.0.1]',
      '[64:ff9b::127.0.0.1]',
      '[2002:7f00:1::1]',
      '[::ffff:0:a9fe:a9fe]',
    ]) {
      const r = await f.api.call('POST', '/webhooks', {
        ...owner,
        body: { url: `http://${host}/hook`, events: ['topic.created'] },
      });
      assert.equal(r.status, 422, `${host}: ${r.text.slice(0, 200)}`);
      assert.match(r.json.detail, /loopback, private and link-local addresses are refused/, host);
    }

    const created = await f.api.call('POST', '/webhooks', {
      ...owner,
      body: { url: `http://${REBOUND}:9/hook`, events: ['topic.created'] },
    });
    assert.equal(created.status, 201, created.text);
    const webhook = created.json.endpoint.id as string;
    const topic = await f.api.call('POST', '/topics', {
      key: f.keys.writer,
      body: {
        category: 'support',
        title: 'A question whose webhook is refused',
        body: 'A body long enough to be a question.',
      },
    });
    assert.equal(topic.status, 201, topic.text);

    const delivery = await until('the delivery to end', async () => {
      const list = await f.api.call('GET', `/webhooks/${webhook}/deliveries`, owner);
      const d = list.json.deliveries[0];
      return d && d.status !== 'pending' ? d : undefined;
    });
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempts, 1, 'a refusal by policy is not retried');
    assert.equal(delivery.next_attempt_at, null);
    assert.match(delivery.last_error, /^Refused: .*127\.0\.0\.1.*Not retried/);
    // An admin reads the same reason in the delivery's log.
    const detail = await f.api.call('GET', `/webhook-deliveries/${delivery.id}`, owner);
    assert.equal(detail.json.attempts.length, 1);
    assert.match(detail.json.attempts[0].error, /^Refused: /);
  } finally {
    await f.stop();
  }
});
