// The REST contract, run once per database engine: every route of the table through a journey,
// every credential kind, the error matrix (400 401 403 404 405 409 413 415 422 429), idempotency
// shared with MCP (20 concurrent identical requests → one topic, the same bytes), pagination to the
// end through Link headers, ETags.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { REST_ROUTES } from '../../src/http/rest/routes.ts';
import { Api, startRestFixture, type Fixture, type Reply } from './fixture.ts';
import { categoryTests } from './categories.ts';
import { moderationTests } from './moderation.ts';
import { runJourney } from './journey.ts';

function isProblem(r: Reply, status: number, code: string): void {
  assert.equal(r.status, status, r.text.slice(0, 300));
  assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(r.json.status, status);
  assert.equal(r.json.code, code);
  assert.ok(r.json.title && r.json.detail && r.json.type);
}

const question = (title: string) => ({
  category: 'support',
  title,
  body: 'A body long enough to be a question.',
});

export function defineRestContract(
  engine: string,
  env: () => Promise<{ env: Record<string, string>; cleanup?: () => Promise<void> }>,
): void {
  describe(`REST contract (${engine})`, () => {
    let f: Fixture;
    let cleanup: (() => Promise<void>) | undefined;
    before(async () => {
      const setup = await env();
      cleanup = setup.cleanup;
      f = await startRestFixture({
        HAMLET_WEBHOOK_ALLOW_PRIVATE: '1',
        HAMLET_REST_MAX_BODY_BYTES: '300000',
        ...setup.env,
      });
    });
    after(async () => {
      await f?.stop();
      await cleanup?.();
    });

    test('every route of the table answers as documented', async () => {
      const covered = await runJourney(f);
      const all = REST_ROUTES.map(
        (r) => `${r.method.toUpperCase()} ${r.path}${r.server === 'network' ? ' (network)' : ''}`,
      );
      assert.deepEqual(
        all.filter((r) => !covered.has(r)),
        [],
        'routes the journey did not reach',
      );
    });

    test('every credential kind', async () => {
      const { api, keys, network } = f;
      assert.equal((await api.call('GET', '/categories', { key: keys.reader })).status, 200);
      assert.equal(
        (await api.call('GET', '/categories', { key: keys.reader, apiKeyHeader: true })).status,
        200,
      );
      assert.equal((await api.call('GET', '/topics', { key: keys.member })).status, 200);
      assert.equal((await api.call('GET', '/topics', { session: keys.session })).status, 200);
      assert.equal(
        (
          await api.call('POST', '/topics', {
            session: keys.session,
            body: question('Asked from a signed-in browser'),
          })
        ).status,
        201,
      );
      const noCsrf = await api.call('POST', '/topics', {
        headers: { cookie: keys.session.cookie },
        body: question('Asked without the CSRF token'),
      });
      isProblem(noCsrf, 403, 'forbidden');
      assert.match(noCsrf.json.detail, /X-CSRF-Token/);
      // A public community's content reads are open without a credential, as its pages are; its
      // other endpoints need a key, and a private community is not there at all.
      const topics = await api.call('GET', '/topics');
      assert.equal(topics.status, 200, topics.text);
      const topic = topics.json.topics[0];
      for (const path of ['/categories', `/topics/${topic.id}`, '/search?q=webhook'])
        assert.equal((await api.call('GET', path)).status, 200, `anonymous GET ${path}`);
      const anonymous = await api.call('GET', '/suggest?q=how%20do%20I%20rotate%20keys');
      isProblem(anonymous, 401, 'unauthorized');
      assert.match(anonymous.json.detail, /^This endpoint needs an agent key of community "acme"/);
      assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer/);
      isProblem(
        await api.call('POST', '/topics', { body: question('Asked without any credential') }),
        401,
        'unauthorized',
      );
      const secret = new Api(f.h.hostUrl('skunkworks.localhost', '').replace(/\/$/, ''));
      for (const path of ['/topics', '/categories'])
        assert.equal((await secret.call('GET', path)).status, 404, `private: GET ${path}`);
      const byPath = new Api(f.h.hostUrl('127.0.0.1', '/c/skunkworks').replace(/\/$/, ''));
      assert.equal((await byPath.call('GET', '/topics')).status, 404, 'private, in the path form');
      const foreign = await api.call('GET', '/topics', { key: keys.foreign });
      assert.ok([401, 403].includes(foreign.status), foreign.text);
      isProblem(
        await api.call('GET', '/topics', { key: 'hmlt_live_' + 'x'.repeat(40) }),
        401,
        'unauthorized',
      );
      assert.equal((await network.call('GET', '/search?q=postgres')).status, 200);
      isProblem(
        await network.call('POST', '/communities/acme/topics', {
          body: question('Asked anonymously on the apex'),
        }),
        401,
        'unauthorized',
      );
      isProblem(
        await network.call('POST', '/communities/acme/topics', {
          key: keys.writer,
          body: question('Asked with an agent key on the apex'),
        }),
        401,
        'unauthorized',
      );
    });

    test('the error matrix', async () => {
      const { api, keys } = f;
      isProblem(
        await api.call('POST', '/topics', { key: keys.writer, raw: '{"title": ' }),
        400,
        'invalid_argument',
      );
      isProblem(
        await api.call('POST', '/topics', { key: keys.writer, raw: '[1, 2]' }),
        400,
        'invalid_argument',
      );
      const scope = await api.call('POST', '/topics', {
        key: keys.reader,
        body: question('A reader may not ask this'),
      });
      isProblem(scope, 403, 'forbidden');
      assert.match(scope.json.detail, /not scoped for "topic:create"/);
      isProblem(await api.call('GET', '/webhooks', { key: keys.writer }), 403, 'forbidden');
      isProblem(
        await api.call('GET', '/topics/no-such-topic-anywhere', { key: keys.reader }),
        404,
        'not_found',
      );
      isProblem(await api.call('GET', '/no/such/route', { key: keys.reader }), 404, 'not_found');
      const wrongMethod = await api.call('PUT', '/topics', { key: keys.reader, body: {} });
      isProblem(wrongMethod, 405, 'invalid_argument');
      assert.equal(wrongMethod.headers.get('allow'), 'GET, POST');
      const huge = await api.call('POST', '/topics', {
        key: keys.writer,
        body: { ...question('A question with a huge body'), body: 'x'.repeat(400_000) },
      });
      isProblem(huge, 413, 'invalid_argument');
      isProblem(
        await api.call('POST', '/topics', {
          key: keys.writer,
          raw: 'title=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        'invalid_argument',
      );
      const schema = await api.call('POST', '/topics', {
        key: keys.writer,
        body: { category: 'support', title: 'short', extra: 1 },
      });
      isProblem(schema, 422, 'invalid_argument');
      assert.deepEqual(schema.json.errors.map((e: { path: string }) => e.path).sort(), [
        '(arguments)',
        'body',
        'title',
      ]);
      isProblem(
        await api.call('GET', '/topics?limit=1000', { key: keys.reader }),
        422,
        'invalid_argument',
      );
      isProblem(
        await api.call('GET', '/topics', {
          key: keys.reader,
          headers: { 'idempotency-key': 'a-read-with-a-key' },
        }),
        422,
        'invalid_argument',
      );
      // Rate limited per key: a fresh key spends its budget, then gets 429 with the wait.
      const { key } = await f.h.services.agents.create(systemActor('test'), f.acme, {
        name: 'greedy-bot',
      });
      const replies: Reply[] = [];
      for (let batch = 0; batch < 10 && !replies.some((r) => r.status === 429); batch++) {
        replies.push(
          ...(await Promise.all(
            Array.from({ length: 100 }, () => api.call('GET', '/categories', { key })),
          )),
        );
      }
      const limited = replies.find((r) => r.status === 429)!;
      isProblem(limited, 429, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.match(limited.headers.get('ratelimit') ?? '', /"key";r=0;t=\d+/);
      assert.match(replies[0]!.headers.get('ratelimit-policy') ?? '', /"key";q=300;w=60/);
    });

    test('idempotency: 20 concurrent identical requests make one topic, replayed byte for byte; another body is 409; MCP shares the key', async () => {
      const { api, keys } = f;
      const body = question('Idempotent: asked twenty times at once');
      const headers = { 'idempotency-key': 'rest-idem-0001' };
      const replies = await Promise.all(
        Array.from({ length: 20 }, () =>
          api.call('POST', '/topics', { key: keys.writer, body, headers }),
        ),
      );
      assert.deepEqual([...new Set(replies.map((r) => r.status))], [201]);
      assert.equal(new Set(replies.map((r) => r.text)).size, 1);
      const listed = await api.call(
        'GET',
        '/search?q=%22asked%20twenty%20times%20at%20once%22&source_types=topic',
        { key: keys.reader },
      );
      assert.equal(
        listed.json.results.filter((r: { title: string }) => r.title === body.title).length,
        1,
      );
      isProblem(
        await api.call('POST', '/topics', {
          key: keys.writer,
          body: { ...body, title: 'Idempotent: but another question' },
          headers,
        }),
        409,
        'conflict',
      );
      const mcp = await fetch(api.url('').replace('/api/v1', '/api/mcp'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${keys.writer}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'create_topic',
            arguments: { ...body, idempotency_key: 'rest-idem-0001' },
          },
        }),
      });
      const result = (await mcp.json()).result;
      assert.equal(result.isError, false);
      assert.equal(result.structuredContent.topic.id, replies[0]!.json.topic.id);
    });

    categoryTests(() => f);
    moderationTests(() => f);

    test('pagination to the end through Link headers, and ETags', async () => {
      const { api, keys } = f;
      await f.h.services.categories.create(systemActor('test'), f.acme, {
        slug: 'paging',
        name: 'Paging',
      });
      const titles = Array.from({ length: 7 }, (_, i) => `Paging through topic number ${i + 1}`);
      for (const t of titles)
        assert.equal(
          (
            await api.call('POST', '/topics', {
              key: keys.writer,
              body: { ...question(t), category: 'paging' },
            })
          ).status,
          201,
        );
      const seen: string[] = [];
      let url: string | undefined = api.url('/topics?category=paging&limit=2&sort=created');
      let pages = 0;
      while (url) {
        const page = await api.call('GET', url, { key: keys.reader });
        assert.equal(page.status, 200);
        seen.push(...page.json.topics.map((t: { title: string }) => t.title));
        const link = page.headers.get('link');
        assert.equal(Boolean(link), page.json.next_cursor !== null);
        url = link ? new URL(/<([^>]*)>/.exec(link)![1]!, url).toString() : undefined;
        pages++;
      }
      assert.equal(pages, 4);
      assert.deepEqual([...seen].sort(), [...titles].sort());
      const first = await api.call('GET', '/categories', { key: keys.reader });
      const etag = first.headers.get('etag')!;
      assert.match(etag, /^W\/"/);
      const again = await api.call('GET', '/categories', {
        key: keys.reader,
        headers: { 'if-none-match': etag },
      });
      assert.equal(again.status, 304);
      assert.equal(again.text, '');
    });
  });
}
