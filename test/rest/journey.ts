// Every REST route, once, in an order where each step can use what the earlier ones created: the
// contract suite runs it and checks that the steps cover the whole route table.
import assert from 'node:assert/strict';
import type { Call, Fixture, Reply } from './fixture.ts';
import { png } from '../helpers/png.ts';

type Step = {
  route: string;
  expect: number;
  run: (f: Fixture, s: State) => Promise<Reply>;
  check?: (r: Reply, s: State) => void;
};
type State = Record<string, string>;

const enc = encodeURIComponent;
const step = (route: string, expect: number, run: Step['run'], check?: Step['check']): Step => ({
  route,
  expect,
  run,
  check,
});
const on = (f: Fixture, method: string, path: string, o: Call) => f.api.call(method, path, o);

export const JOURNEY: Step[] = [
  step(
    'GET /search',
    200,
    (f) => on(f, 'GET', '/search?q=postgres&solved_only=true&limit=2', { key: f.keys.reader }),
    (r) => assert.ok(Array.isArray(r.json.results)),
  ),
  step('GET /suggest', 200, (f) =>
    on(f, 'GET', '/suggest?q=how%20do%20I%20use%20postgres', { key: f.keys.reader }),
  ),
  step('GET /categories', 200, (f) => on(f, 'GET', '/categories', { key: f.keys.reader })),
  step(
    'POST /categories',
    201,
    (f) => on(f, 'POST', '/categories', { key: f.keys.owner, body: { name: 'Journey' } }),
    (r, s) => {
      s.category = r.json.id;
    },
  ),
  step('PATCH /categories/{category}', 200, (f, s) =>
    on(f, 'PATCH', `/categories/${s.category}`, { key: f.keys.owner, body: { position: 1 } }),
  ),
  step('DELETE /categories/{category}', 200, (f, s) =>
    on(f, 'DELETE', `/categories/${s.category}`, { session: f.keys.session }),
  ),
  step('GET /topics', 200, (f) =>
    on(f, 'GET', '/topics?sort=created&limit=5', { key: f.keys.reader }),
  ),
  step(
    'POST /topics',
    201,
    (f) =>
      on(f, 'POST', '/topics', {
        key: f.keys.writer,
        body: {
          category: 'support',
          title: 'Journey: how do REST writes work?',
          body: 'A question asked over the REST API.',
          tags: ['rest'],
        },
      }),
    (r, s) => {
      s.topic = r.json.topic.id;
    },
  ),
  step(
    'GET /topics/{topic}',
    200,
    (f, s) => on(f, 'GET', `/topics/${s.topic}`, { key: f.keys.reader }),
    (r) => assert.equal(r.json.posts.length, 1),
  ),
  step(
    'POST /topics/{topic}/posts',
    201,
    (f, s) =>
      on(f, 'POST', `/topics/${s.topic}/posts`, {
        key: f.keys.writer,
        body: { body: 'They go through the same pipeline as MCP.' },
      }),
    (r, s) => {
      s.post = r.json.post.id;
    },
  ),
  step(
    'POST /topics/{topic}/solution',
    200,
    (f, s) =>
      on(f, 'POST', `/topics/${s.topic}/solution`, { key: f.keys.writer, body: { post: s.post } }),
    (r, s) => assert.equal(r.json.topic.solution_post_id, s.post),
  ),
  step('DELETE /topics/{topic}/solution', 200, (f, s) =>
    on(f, 'DELETE', `/topics/${s.topic}/solution`, { key: f.keys.owner }),
  ),
  step(
    'GET /posts/{post}/revisions',
    200,
    (f, s) => on(f, 'GET', `/posts/${s.post}/revisions`, { key: f.keys.reader }),
    (r) =>
      assert.deepEqual(
        r.json.revisions.map((v: { revision: number; body: string }) => [v.revision, v.body]),
        [[1, 'They go through the same pipeline as MCP.']],
      ),
  ),
  // Feedback: a person votes on the reply and says it worked; an admin reads and sets downvotes.
  step(
    'POST /posts/{post}/vote',
    200,
    (f, s) => on(f, 'POST', `/posts/${s.post}/vote`, { key: f.keys.owner, body: { value: 1 } }),
    (r) => assert.equal(r.json.score, 1),
  ),
  step(
    'POST /posts/{post}/outcome',
    200,
    (f, s) =>
      on(f, 'POST', `/posts/${s.post}/outcome`, {
        key: f.keys.owner,
        body: { worked: true, note: 'Fixed it for me.' },
      }),
    (r) => assert.equal(r.json.confirmations.worked_by_people, 1),
  ),
  // A moderator clears the answer's dispute (none here: it stays undisputed, the signals answered).
  step(
    'POST /posts/{post}/clear-dispute',
    200,
    (f, s) => on(f, 'POST', `/posts/${s.post}/clear-dispute`, { key: f.keys.owner, body: {} }),
    (r) => {
      assert.equal(r.json.reason, 'moderator');
      assert.equal(r.json.confidence?.disputed ?? false, false);
    },
  ),
  step('GET /votes/settings', 200, (f) => on(f, 'GET', '/votes/settings', { key: f.keys.owner })),
  step(
    'PUT /votes/settings',
    200,
    (f) => on(f, 'PUT', '/votes/settings', { key: f.keys.owner, body: { downvotes: true } }),
    (r) => assert.equal(r.json.downvotes, true),
  ),
  // Moderation: a member flags the reply, the review queue shows it, a decider decides.
  step(
    'POST /posts/{post}/flags',
    200,
    (f, s) =>
      on(f, 'POST', `/posts/${s.post}/flags`, {
        key: f.keys.member,
        body: { reason: 'wrong_or_outdated', note: 'The pipeline changed in 2.0.' },
      }),
    (r) => assert.equal(r.json.added, true),
  ),
  step(
    'GET /review',
    200,
    (f) => on(f, 'GET', '/review', { key: f.keys.decider }),
    (r, s) =>
      assert.match(
        r.json.items.find((i: { id: string }) => i.id === s.post)?.why ?? '',
        /wrong_or_outdated.*pipeline changed/,
      ),
  ),
  step(
    'POST /uploads',
    200,
    (f) =>
      on(f, 'POST', '/uploads?filename=journey%20chart.png', {
        key: f.keys.writer,
        raw: new Blob([png(30, 20)]),
        headers: { 'content-type': 'application/octet-stream' },
      }),
    (r) => {
      assert.equal(r.json.upload.content_type, 'image/png');
      assert.deepEqual([r.json.upload.width, r.json.upload.height], [30, 20]);
      assert.match(
        r.json.upload.markdown,
        /^!\[journey-chart\]\(http.*\/uploads\/[0-9a-f-]{36}\/journey-chart\.png\)$/,
      );
    },
  ),
  step('POST /posts/{post}/hide', 200, (f, s) =>
    on(f, 'POST', `/posts/${s.post}/hide`, { key: f.keys.decider, body: { note: 'Outdated.' } }),
  ),
  step('POST /posts/{post}/unhide', 200, (f, s) =>
    on(f, 'POST', `/posts/${s.post}/unhide`, { key: f.keys.decider, body: {} }),
  ),
  step(
    'POST /review/decisions',
    200,
    (f, s) =>
      on(f, 'POST', '/review/decisions', {
        key: f.keys.decider,
        body: { kind: 'flag', id: s.post, decision: 'hide', reason: 'Outdated.' },
      }),
    (r) => assert.equal(r.json.flag.hidden, true),
  ),
  step('GET /settings/moderation', 200, (f) =>
    on(f, 'GET', '/settings/moderation', { key: f.keys.owner }),
  ),
  step(
    'PATCH /settings/moderation',
    200,
    (f) =>
      on(f, 'PATCH', '/settings/moderation', { key: f.keys.owner, body: { flags_to_hide: 4 } }),
    (r) => assert.equal(r.json.flags_to_hide, 4),
  ),
  step('PUT /sanctions/{subject_kind}/{subject}', 200, (f) =>
    on(f, 'PUT', '/sanctions/agent/writer-bot', {
      key: f.keys.owner,
      body: { mode: 'silenced', days: 1, reason: 'Cooling off.' },
    }),
  ),
  step(
    'GET /sanctions',
    200,
    (f) => on(f, 'GET', '/sanctions', { key: f.keys.owner }),
    (r) => assert.equal(r.json.sanctions[0]?.subject.name, 'writer-bot'),
  ),
  step('DELETE /sanctions/{subject_kind}/{subject}', 200, (f) =>
    on(f, 'DELETE', '/sanctions/agent/writer-bot', { key: f.keys.owner }),
  ),
  step('POST /topics/{topic}/close', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/close`, { key: f.keys.owner, body: {} }),
  ),
  step('POST /topics/{topic}/reopen', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/reopen`, { key: f.keys.owner, body: {} }),
  ),
  step('POST /topics/{topic}/lock', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/lock`, { key: f.keys.owner, body: {} }),
  ),
  step('POST /topics/{topic}/unlock', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/unlock`, { key: f.keys.owner, body: {} }),
  ),
  step('POST /topics/{topic}/pin', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/pin`, { key: f.keys.owner, body: {} }),
  ),
  step('POST /topics/{topic}/unpin', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/unpin`, { key: f.keys.owner, body: {} }),
  ),
  step('POST /topics/{topic}/delete', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/delete`, { key: f.keys.owner, body: { reason: 'journey' } }),
  ),
  step('POST /topics/{topic}/restore', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/restore`, { key: f.keys.owner, body: {} }),
  ),
  step('POST /topics/{topic}/move', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/move`, { key: f.keys.owner, body: { category: 'support' } }),
  ),
  step('POST /topics/{topic}/tags', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/tags`, { key: f.keys.owner, body: { tags: ['rest'] } }),
  ),
  step('POST /topics/{topic}/duplicate', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/duplicate`, {
      key: f.keys.owner,
      body: { of: 'getting-started' },
    }),
  ),
  step('POST /topics/{topic}/reopen', 200, (f, s) =>
    on(f, 'POST', `/topics/${s.topic}/reopen`, { key: f.keys.owner, body: {} }),
  ),
  step('POST /topics/{topic}/merge', 200, async (f, s) => {
    const source = await on(f, 'POST', '/topics', {
      key: f.keys.writer,
      body: {
        category: 'support',
        title: 'Journey: merged away',
        body: 'A question merged into another.',
      },
    });
    return on(f, 'POST', `/topics/${source.json.topic.id}/merge`, {
      key: f.keys.owner,
      body: { into: s.topic },
    });
  }),
  step('POST /posts/{post}/delete', 200, (f, s) =>
    on(f, 'POST', `/posts/${s.post}/delete`, { key: f.keys.owner, body: { reason: 'journey' } }),
  ),
  step('POST /posts/{post}/restore', 200, (f, s) =>
    on(f, 'POST', `/posts/${s.post}/restore`, { key: f.keys.owner, body: {} }),
  ),
  step('GET /moderation-log', 200, (f) => on(f, 'GET', '/moderation-log', { key: f.keys.owner })),
  step(
    'GET /articles/{article}',
    200,
    (f) => on(f, 'GET', '/articles/getting-started', { key: f.keys.reader }),
    (r, s) => {
      s.article = r.json.topic.slug;
    },
  ),
  step('PUT /articles/{article}', 200, (f, s) =>
    on(f, 'PUT', `/articles/${s.article}`, {
      key: f.keys.writer,
      body: {
        title: 'Getting started with Hamlet',
        body: 'The revised body of the getting-started article.',
      },
    }),
  ),
  step(
    'GET /articles/{article}/revisions',
    200,
    (f, s) => on(f, 'GET', `/articles/${s.article}/revisions`, { key: f.keys.reader }),
    (r) => assert.ok(r.json.revisions.length >= 2),
  ),
  step('PUT /settings/approval-policies/{kind}', 200, (f) =>
    on(f, 'PUT', '/settings/approval-policies/post.create', {
      key: f.keys.owner,
      body: { mode: 'approval' },
    }),
  ),
  step('GET /settings/approval-policies', 200, (f) =>
    on(f, 'GET', '/settings/approval-policies', { key: f.keys.owner }),
  ),
  step(
    'POST /topics/{topic}/posts',
    202,
    (f, s) =>
      on(f, 'POST', `/topics/${s.topic}/posts`, {
        key: f.keys.writer,
        body: { body: 'This reply waits for a moderator.' },
      }),
    (r, s) => {
      assert.equal(r.json.status, 'pending_approval');
      s.approval = r.json.approval_id;
    },
  ),
  step(
    'GET /approvals/{id}',
    200,
    (f, s) => on(f, 'GET', `/approvals/${s.approval}`, { key: f.keys.writer }),
    (r) => assert.equal(r.json.status, 'pending'),
  ),
  step(
    'GET /approvals',
    200,
    (f) => on(f, 'GET', '/approvals?status=pending', { key: f.keys.decider }),
    (r, s) =>
      assert.ok(
        r.json.approvals.some((a: { approval_id: string }) => a.approval_id === s.approval),
      ),
  ),
  step(
    'POST /approvals/{id}/approve',
    200,
    (f, s) => on(f, 'POST', `/approvals/${s.approval}/approve`, { key: f.keys.decider }),
    (r) => assert.equal(r.json.status, 'applied'),
  ),
  step(
    'POST /topics/{topic}/posts',
    202,
    (f, s) =>
      on(f, 'POST', `/topics/${s.topic}/posts`, {
        key: f.keys.writer,
        body: { body: 'And this one will be refused.' },
      }),
    (r, s) => {
      s.approval2 = r.json.approval_id;
    },
  ),
  step(
    'POST /approvals/{id}/reject',
    200,
    (f, s) =>
      on(f, 'POST', `/approvals/${s.approval2}/reject`, {
        key: f.keys.owner,
        body: { reason: 'Off topic.' },
      }),
    (r) => assert.equal(r.json.status, 'rejected'),
  ),
  step('PUT /settings/approval-policies/{kind}', 200, (f) =>
    on(f, 'PUT', '/settings/approval-policies/post.create', {
      key: f.keys.owner,
      body: { mode: 'auto' },
    }),
  ),
  step('GET /settings/mcp', 200, (f) => on(f, 'GET', '/settings/mcp', { key: f.keys.owner })),
  step('PUT /settings/mcp', 200, (f) =>
    on(f, 'PUT', '/settings/mcp', {
      key: f.keys.owner,
      body: { config: { tool_mode: 'full', instructions: 'Search first.' } },
    }),
  ),
  step('GET /agents', 200, (f) => on(f, 'GET', '/agents', { session: f.keys.session })),
  step(
    'POST /agents',
    201,
    (f) =>
      on(f, 'POST', '/agents', {
        session: f.keys.session,
        body: { name: 'journey-bot', scopes: ['post:create'] },
      }),
    (r, s) => {
      s.agent = r.json.agent.id;
      assert.match(r.json.key, /^hmlt_live_/);
    },
  ),
  step('PATCH /agents/{agent}', 200, (f, s) =>
    on(f, 'PATCH', `/agents/${s.agent}`, {
      key: f.keys.owner,
      body: { scopes: ['post:create', 'topic:create'] },
    }),
  ),
  step(
    'POST /agents/{agent}/keys',
    201,
    (f, s) =>
      on(f, 'POST', `/agents/${s.agent}/keys`, {
        key: f.keys.owner,
        body: { expires_in_days: 30 },
      }),
    (r, s) => {
      s.key = r.json.record.prefix ?? r.json.record.id;
    },
  ),
  step(
    'GET /agents/{agent}/keys',
    200,
    (f, s) => on(f, 'GET', `/agents/${s.agent}/keys`, { key: f.keys.owner }),
    (r) => assert.equal(r.json.keys.length, 2),
  ),
  step('GET /keys', 200, (f) => on(f, 'GET', '/keys', { key: f.keys.owner })),
  step('DELETE /keys/{key}', 200, (f, s) =>
    on(f, 'DELETE', `/keys/${enc(s.key!)}`, { key: f.keys.owner }),
  ),
  step('GET /members', 200, (f) => on(f, 'GET', '/members', { key: f.keys.owner })),
  step('PUT /members/{email}', 200, (f) =>
    on(f, 'PUT', `/members/${enc('member@example.com')}`, {
      key: f.keys.owner,
      body: { role: 'moderator' },
    }),
  ),
  step('DELETE /members/{email}', 200, (f) =>
    on(f, 'DELETE', `/members/${enc('member@example.com')}`, { key: f.keys.owner }),
  ),
  step('PUT /members/{email}', 200, (f) =>
    on(f, 'PUT', `/members/${enc('member@example.com')}`, {
      key: f.keys.owner,
      body: { role: 'member' },
    }),
  ),
  step(
    'POST /webhooks',
    201,
    (f) =>
      on(f, 'POST', '/webhooks', {
        key: f.keys.owner,
        body: { url: 'http://127.0.0.1:9/hook', events: ['topic.created'] },
      }),
    (r, s) => {
      s.webhook = r.json.endpoint.id;
      assert.match(r.json.secret, /^whsec_/);
    },
  ),
  step(
    'GET /webhooks',
    200,
    (f) => on(f, 'GET', '/webhooks', { key: f.keys.owner }),
    (r) => assert.ok(!JSON.stringify(r.json).includes('whsec_')),
  ),
  step('GET /webhooks/{webhook}', 200, (f, s) =>
    on(f, 'GET', `/webhooks/${s.webhook}`, { key: f.keys.owner }),
  ),
  step('POST /topics', 201, (f) =>
    on(f, 'POST', '/topics', {
      key: f.keys.writer,
      body: {
        category: 'support',
        title: 'Journey: an event for the webhook',
        body: 'This topic creates a webhook delivery.',
      },
    }),
  ),
  step(
    'PATCH /webhooks/{webhook}',
    200,
    (f, s) =>
      on(f, 'PATCH', `/webhooks/${s.webhook}`, {
        key: f.keys.owner,
        body: { active: false, events: ['topic.created', 'post.created'] },
      }),
    (r) => assert.equal(r.json.active, false),
  ),
  step(
    'POST /webhooks/{webhook}/rotate-secret',
    200,
    (f, s) =>
      on(f, 'POST', `/webhooks/${s.webhook}/rotate-secret`, {
        key: f.keys.owner,
        body: { overlap_hours: 1 },
      }),
    (r) => assert.ok(r.json.endpoint.previous_secret_expires_at),
  ),
  step(
    'GET /webhooks/{webhook}/deliveries',
    200,
    (f, s) => on(f, 'GET', `/webhooks/${s.webhook}/deliveries`, { key: f.keys.owner }),
    (r, s) => {
      assert.equal(r.json.deliveries.length, 1);
      s.delivery = r.json.deliveries[0].id;
    },
  ),
  step(
    'GET /webhook-deliveries/{delivery}',
    200,
    (f, s) => on(f, 'GET', `/webhook-deliveries/${s.delivery}`, { key: f.keys.owner }),
    (r) => assert.equal(r.json.body.type, 'topic.created'),
  ),
  step(
    'POST /webhook-deliveries/{delivery}/redeliver',
    200,
    (f, s) => on(f, 'POST', `/webhook-deliveries/${s.delivery}/redeliver`, { key: f.keys.owner }),
    (r) => assert.equal(r.json.status, 'pending'),
  ),
  step('DELETE /webhooks/{webhook}', 200, (f, s) =>
    on(f, 'DELETE', `/webhooks/${s.webhook}`, { key: f.keys.owner }),
  ),
  // A person's notifications (the owner's user key).
  step('PUT /notifications/level', 200, (f, s) =>
    on(f, 'PUT', '/notifications/level', {
      key: f.keys.owner,
      body: { topic: s.topic, level: 'watch' },
    }),
  ),
  step(
    'GET /notifications',
    200,
    (f) => on(f, 'GET', '/notifications?limit=5', { key: f.keys.owner }),
    (r) => assert.ok(Array.isArray(r.json.notifications)),
  ),
  step(
    'GET /handles',
    200,
    (f) => on(f, 'GET', '/handles?prefix=writer', { key: f.keys.member }),
    (r) =>
      assert.ok(
        r.json.suggestions.some(
          (x: { handle: string; kind: string }) => x.handle === 'writer-bot' && x.kind === 'agent',
        ),
        JSON.stringify(r.json),
      ),
  ),
  step('POST /notifications/read', 200, (f) =>
    on(f, 'POST', '/notifications/read', { key: f.keys.owner, body: { all: true } }),
  ),
  step('PUT /notifications/preferences', 200, (f) =>
    on(f, 'PUT', '/notifications/preferences', {
      key: f.keys.owner,
      body: { email_frequency: 'daily' },
    }),
  ),
  step(
    'GET /notifications/preferences',
    200,
    (f) => on(f, 'GET', '/notifications/preferences', { key: f.keys.owner }),
    (r) => assert.equal(r.json.email, 'daily'),
  ),
  step('PUT /account/handle', 200, (f) =>
    on(f, 'PUT', '/account/handle', { key: f.keys.owner, body: { handle: 'journey-owner' } }),
  ),
  // A person's bookmarks (the owner's user key): kept, listed, and private to them.
  step(
    'PUT /bookmarks',
    200,
    (f, s) =>
      on(f, 'PUT', '/bookmarks', { key: f.keys.owner, body: { topic: s.topic, bookmarked: true } }),
    (r) => assert.deepEqual([r.json.bookmarked, r.json.changed], [true, true]),
  ),
  step(
    'GET /bookmarks',
    200,
    (f) => on(f, 'GET', '/bookmarks?limit=5', { key: f.keys.owner }),
    (r, s) =>
      assert.deepEqual(
        r.json.bookmarks.map((b: { topic: { id: string } }) => b.topic.id),
        [s.topic],
      ),
  ),
  // The network, on the apex.
  step('GET /search (network)', 200, (f) =>
    f.network.call('GET', '/search?q=postgres&communities=acme'),
  ),
  step('GET /suggest (network)', 200, (f) =>
    f.network.call('GET', '/suggest?q=run%20on%20postgres'),
  ),
  step(
    'GET /communities (network)',
    200,
    (f) => f.network.call('GET', '/communities?q=forum%20software'),
    (r) => assert.ok(r.json.communities.some((c: { slug: string }) => c.slug === 'acme')),
  ),
  step('GET /communities/{community} (network)', 200, (f) =>
    f.network.call('GET', '/communities/acme'),
  ),
  step('GET /communities/{community}/topics/{topic} (network)', 200, (f, s) =>
    f.network.call('GET', `/communities/acme/topics/${s.topic}`),
  ),
  step('POST /communities/{community}/topics (network)', 201, (f) =>
    f.network.call('POST', '/communities/acme/topics', {
      key: f.keys.member,
      body: {
        category: 'support',
        title: 'Journey: asked from the network',
        body: 'A question asked with a user key on the apex.',
      },
    }),
  ),
  step(
    'POST /me/keys (network)',
    201,
    (f) => f.network.call('POST', '/me/keys', { key: f.keys.member, body: {} }),
    (r, s) => {
      s.myKey = r.json.record.id;
    },
  ),
  step('GET /me/keys (network)', 200, (f) =>
    f.network.call('GET', '/me/keys', { session: f.keys.session }),
  ),
  step(
    'DELETE /me/keys/{key} (network)',
    200,
    (f, s) => f.network.call('DELETE', `/me/keys/${s.myKey}`, { key: f.keys.member }),
    (r) => assert.equal(r.json.revoked, 1),
  ),
];

/** Runs the journey; returns the routes it covered ("METHOD /path", network ones marked). */
export async function runJourney(f: Fixture): Promise<Set<string>> {
  const state: State = {};
  const covered = new Set<string>();
  for (const s of JOURNEY) {
    const r = await s.run(f, state);
    assert.equal(r.status, s.expect, `${s.route}: ${r.status} ${r.text.slice(0, 400)}`);
    s.check?.(r, state);
    covered.add(s.route);
  }
  return covered;
}
