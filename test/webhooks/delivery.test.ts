// Webhooks end to end with a real HTTP receiver: every event type arrives in the API's shapes with
// both signatures (the Standard Webhooks one checked by the `standardwebhooks` library, the
// hamlet-signature recomputed here), the community's governance too (votes, "this worked", flags,
// moderator actions), retries after 500s keep the webhook-id, 410 disables the
// endpoint, redirects are not followed, a rotated secret's predecessor keeps signing during the
// overlap, and every attempt is in the delivery log (a failed one in the server's log too, summarised).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startRestFixture, type Fixture } from '../rest/fixture.ts';
import { Receiver, waitFor, type Received } from './receiver.ts';

let f: Fixture;
let rx: Receiver;
const secrets: Record<string, string> = {};
const endpoints: Record<string, string> = {};

const owner = () => ({ key: f.keys.owner });
const writer = () => ({ key: f.keys.writer });
const header = (r: Received, name: string) => String(r.headers[name] ?? '');

before(async () => {
  rx = await new Receiver()
    .on('/flaky', { statuses: [500, 500, 200] })
    .on('/gone', { statuses: [410] })
    .on('/moved', { statuses: [302], location: '/ok-target' })
    .start();
  f = await startRestFixture({
    HAMLET_WEBHOOK_ALLOW_PRIVATE: '1',
    HAMLET_WEBHOOK_RETRY_BASE_MS: '100',
    HAMLET_WEBHOOK_MAX_ATTEMPTS: '4',
    HAMLET_WEBHOOK_TIMEOUT_MS: '2000',
  });
  const add = async (name: string, events: string[]) => {
    const r = await f.api.call('POST', '/webhooks', {
      ...owner(),
      body: { url: rx.url(`/${name}`), events, description: name },
    });
    assert.equal(r.status, 201, r.text);
    secrets[name] = r.json.secret;
    endpoints[name] = r.json.endpoint.id;
  };
  await add('all', [
    'topic.created',
    'post.created',
    'solution.marked',
    'article.updated',
    'approval.requested',
    'approval.decided',
  ]);
  await add('flaky', ['topic.created']);
  await add('gone', ['topic.created']);
  await add('moved', ['post.created']);
});
after(async () => {
  await f?.stop();
  await rx?.stop();
});

function verifyBoth(r: Received, secret: string): void {
  const wh = new Webhook(secret);
  assert.deepEqual(wh.verify(r.body, r.headers as Record<string, string>), JSON.parse(r.body));
  const [t, ...sigs] = header(r, 'hamlet-signature').split(',');
  const timestamp = t!.replace('t=', '');
  const expected = createHmac('sha256', secret).update(`${timestamp}.${r.body}`).digest('hex');
  assert.ok(sigs.includes(`v1=${expected}`), 'hamlet-signature matches');
  assert.equal(header(r, 'hamlet-delivery'), header(r, 'webhook-id'));
  assert.equal(header(r, 'hamlet-event'), JSON.parse(r.body).type);
  assert.ok(Math.abs(Number(timestamp) - Date.now() / 1000) < 300);
}

test('every event type arrives once, signed twice, in the API shapes', async () => {
  const asked = await f.api.call('POST', '/topics', {
    ...writer(),
    body: {
      category: 'support',
      title: 'Webhooks: a topic to announce',
      body: 'Receivers should hear about this one.',
    },
  });
  const topic = asked.json.topic;
  const reply = await f.api.call('POST', `/topics/${topic.id}/posts`, {
    ...writer(),
    body: { body: 'A reply for post.created.' },
  });
  await f.api.call('POST', `/topics/${topic.id}/solution`, {
    ...writer(),
    body: { post: reply.json.post.id },
  });
  await f.api.call('PUT', '/articles/getting-started', {
    ...writer(),
    body: { title: 'Getting started with Hamlet', body: 'Revised so that article.updated fires.' },
  });
  await f.api.call('PUT', '/settings/approval-policies/topic.create', {
    ...owner(),
    body: { mode: 'approval' },
  });
  const queued = await f.api.call('POST', '/topics', {
    ...writer(),
    body: {
      category: 'support',
      title: 'Webhooks: a queued question',
      body: 'This one waits for approval first.',
    },
  });
  await f.api.call('POST', `/approvals/${queued.json.approval_id}/approve`, { ...owner() });
  await f.api.call('PUT', '/settings/approval-policies/topic.create', {
    ...owner(),
    body: { mode: 'auto' },
  });

  const types = [
    'topic.created',
    'post.created',
    'solution.marked',
    'article.updated',
    'approval.requested',
    'approval.decided',
  ];
  await waitFor(
    () => types.every((t) => rx.at('/all').some((r) => header(r, 'hamlet-event') === t)),
    10_000,
    'every event type at /all',
  );
  await waitFor(() => rx.at('/all').length >= 7, 5_000, 'the approved topic too');
  for (const r of rx.at('/all')) verifyBoth(r, secrets.all!);
  const byType = (t: string) =>
    rx
      .at('/all')
      .filter((r) => header(r, 'hamlet-event') === t)
      .map((r) => JSON.parse(r.body));
  const created = byType('topic.created');
  assert.equal(created.length, 2, 'the direct topic and the approved one');
  assert.deepEqual(created[0].data.topic, topic, 'the same topic object as the REST answer');
  assert.equal(created[0].community.slug, 'acme');
  assert.equal(byType('post.created')[0].data.post.id, reply.json.post.id);
  assert.equal(byType('solution.marked')[0].data.topic.solution_post_id, reply.json.post.id);
  assert.equal(byType('article.updated')[0].data.revision >= 2, true);
  assert.equal(byType('approval.requested')[0].data.approval.status, 'pending');
  assert.equal(byType('approval.decided')[0].data.approval.status, 'applied');
  assert.equal(
    new Set(rx.at('/all').map((r) => header(r, 'webhook-id'))).size,
    rx.at('/all').length,
    'one delivery per event',
  );
});

test('500s are retried with the same webhook-id until a 2xx, and every attempt is logged', async () => {
  await waitFor(() => rx.at('/flaky').length >= 3 * 2, 15_000, 'three attempts per flaky delivery');
  const first = rx
    .at('/flaky')
    .filter((r) => JSON.parse(r.body).id === JSON.parse(rx.at('/flaky')[0]!.body).id);
  assert.equal(first.length, 3);
  assert.equal(new Set(first.map((r) => header(r, 'webhook-id'))).size, 1);
  // Base 100 ms, doubling, ±20% jitter: at least 80 ms, then at least 160 ms between attempts.
  assert.ok(
    first[1]!.at - first[0]!.at >= 80 && first[2]!.at - first[1]!.at >= 160,
    'the waits grow',
  );
  const id = header(first[0]!, 'webhook-id');
  await waitFor(
    async () =>
      (await f.api.call('GET', `/webhook-deliveries/${id}`, owner())).json.delivery.status ===
      'delivered',
    5_000,
    'delivered',
  );
  const log = (await f.api.call('GET', `/webhook-deliveries/${id}`, owner())).json;
  assert.deepEqual(
    log.attempts.map((a: { status_code: number }) => a.status_code),
    [500, 500, 200],
  );
  assert.match(log.attempts[0].response_excerpt, /status 500/);
  // The operator's log says so once; the next 500s of that endpoint are only counted.
  const warned = f.h.logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'webhook delivery failed' && l.endpoint === endpoints.flaky);
  assert.equal(warned.length, 1, 'one line for four failed attempts');
  assert.equal(warned[0]!.status, 500);
  assert.equal(warned[0]!.retrying, true);
});

test('410 Gone disables the endpoint and nothing more is sent to it', async () => {
  await waitFor(
    async () =>
      (await f.api.call('GET', `/webhooks/${endpoints.gone}`, owner())).json.active === false,
    5_000,
    'the endpoint disabled',
  );
  const endpoint = (await f.api.call('GET', `/webhooks/${endpoints.gone}`, owner())).json;
  assert.match(endpoint.disabled_reason, /410/);
  const before = rx.at('/gone').length;
  assert.equal(before, 1, 'the second topic was not sent after the first 410');
  await f.api.call('POST', '/topics', {
    ...writer(),
    body: {
      category: 'support',
      title: 'Webhooks: after the endpoint is gone',
      body: 'Nobody at /gone should hear this.',
    },
  });
  await waitFor(
    () =>
      rx
        .at('/all')
        .some(
          (r) => JSON.parse(r.body).data.topic?.title === 'Webhooks: after the endpoint is gone',
        ),
    5_000,
    'the other endpoint hears it',
  );
  assert.equal(rx.at('/gone').length, before);
  const deliveries = (
    await f.api.call('GET', `/webhooks/${endpoints.gone}/deliveries?status=failed`, owner())
  ).json.deliveries;
  assert.equal(deliveries.length, 1);
});

test('redirects are not followed', async () => {
  await waitFor(() => rx.at('/moved').length >= 1, 5_000, 'a delivery to /moved');
  const id = header(rx.at('/moved')[0]!, 'webhook-id');
  const log = (await f.api.call('GET', `/webhook-deliveries/${id}`, owner())).json;
  assert.equal(log.attempts[0].status_code, 302);
  assert.match(log.attempts[0].error, /not followed/);
  assert.equal(rx.at('/ok-target').length, 0);
});

test('after a rotation both secrets sign during the overlap; redelivery keeps the id', async () => {
  const rotated = await f.api.call('POST', `/webhooks/${endpoints.all}/rotate-secret`, {
    ...owner(),
    body: { overlap_hours: 1 },
  });
  const fresh = rotated.json.secret as string;
  assert.notEqual(fresh, secrets.all);
  const count = rx.at('/all').length;
  await f.api.call('POST', '/topics', {
    ...writer(),
    body: {
      category: 'support',
      title: 'Webhooks: signed by two secrets',
      body: 'Both the old and the new secret verify this.',
    },
  });
  await waitFor(() => rx.at('/all').length > count, 5_000, 'the delivery after the rotation');
  const r = rx.at('/all')[count]!;
  verifyBoth(r, fresh);
  verifyBoth(r, secrets.all!);
  const id = header(r, 'webhook-id');
  assert.equal(
    (await f.api.call('POST', `/webhook-deliveries/${id}/redeliver`, owner())).status,
    200,
  );
  await waitFor(() => rx.at('/all').length > count + 1, 5_000, 'the redelivery');
  assert.equal(header(rx.at('/all')[count + 1]!, 'webhook-id'), id);
});

// Last: its topic would reach the topic.created endpoints the tests above count.
test('the community governing itself is announced: post.voted, answer.confirmed, post.flagged, topic.moderated', async () => {
  const made = await f.api.call('POST', '/webhooks', {
    ...owner(),
    body: {
      url: rx.url('/governance'),
      events: ['post.voted', 'answer.confirmed', 'post.flagged', 'topic.moderated'],
      description: 'governance',
    },
  });
  assert.equal(made.status, 201, made.text);
  const secret: string = made.json.secret;
  const member = { key: f.keys.member };
  const topic = (
    await f.api.call('POST', '/topics', {
      ...writer(),
      body: {
        category: 'support',
        title: 'Webhooks: a topic the community votes on',
        body: 'Which answer works?',
      },
    })
  ).json.topic;
  const reply = (
    await f.api.call('POST', `/topics/${topic.id}/posts`, {
      ...writer(),
      body: { body: 'Restart the worker after changing the setting.' },
    })
  ).json.post;
  const steps = [
    await f.api.call('POST', `/posts/${reply.id}/vote`, { ...member, body: { value: 1 } }),
    await f.api.call('POST', `/posts/${reply.id}/outcome`, { ...member, body: { worked: true } }),
    await f.api.call('POST', `/posts/${reply.id}/flags`, {
      ...member,
      body: { reason: 'wrong_or_outdated', note: 'The setting moved in 2.0.' },
    }),
    await f.api.call('POST', `/topics/${topic.id}/close`, {
      ...owner(),
      body: { reason: 'Answered; see the flag for 2.0.' },
    }),
  ];
  for (const r of steps) assert.ok(r.status < 300, r.text);
  const types = ['post.voted', 'answer.confirmed', 'post.flagged', 'topic.moderated'];
  await waitFor(
    () => types.every((t) => rx.at('/governance').some((r) => header(r, 'hamlet-event') === t)),
    10_000,
    'every governance event at /governance',
  );
  for (const r of rx.at('/governance')) verifyBoth(r, secret);
  const one = (t: string) =>
    JSON.parse(rx.at('/governance').find((r) => header(r, 'hamlet-event') === t)!.body).data;
  const voted = one('post.voted');
  assert.deepEqual(voted.vote, { value: 1, previous: 0 });
  assert.equal(voted.post.id, reply.id);
  assert.equal(voted.post.score, 1);
  const confirmed = one('answer.confirmed');
  assert.equal(confirmed.outcome.worked, true);
  assert.equal(confirmed.post.confirmations.worked_by_people, 1);
  const flagged = one('post.flagged');
  assert.equal(flagged.flag.reason, 'wrong_or_outdated');
  assert.equal(flagged.flag.note, 'The setting moved in 2.0.');
  const moderated = one('topic.moderated');
  assert.equal(moderated.action, 'close');
  assert.equal(moderated.topic.id, topic.id);
  assert.equal(moderated.topic.status, 'closed');
  assert.equal(moderated.reason, 'Answered; see the flag for 2.0.');
  assert.equal(moderated.by.kind, 'person');
});
