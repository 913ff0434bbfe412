// "Where did you run this?" on the web, without JavaScript: a reply and a question posted with one
// `name version` pair a line show "Ran on …" on the topic page, and get_topic gives the same pairs;
// a line the form cannot read comes back with a message naming the line and what to write, the
// reply and the pairs kept in the form; "This worked" takes an environment too, which the answer's
// confidence lists. REST takes `environment` on the same writes, and its OpenAPI document says so.
// On SQLite, and on PostgreSQL under scripts/with-postgres.sh.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';
import { fileHamlet, type FileHamlet } from '../helpers/in-process.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { visible, WebClient } from './client.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
const ENV = {
  HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000',
  HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '5000',
};

function environmentOn(engine: string, hamlet: () => Promise<FileHamlet>) {
  describe(`where it ran, on the web, on ${engine}`, () => {
    let n = 0;

    async function person() {
      const h = await hamlet();
      const email = `runner${++n}@example.org`;
      await h.services.accounts.createUser(system, {
        email,
        password: PASSWORD,
        name: `Runner ${n}`,
      });
      const acme = (await h.store.communities.getBySlug('acme'))!;
      await h.services.accounts.addMember(system, acme, { email, role: 'member' });
      const client = new WebClient(`http://${h.host('acme')}`);
      await client.get('/signin');
      const home = await client.post('/signin', { email, password: PASSWORD, next: '/' });
      assert.match(home.text, /Signed in as/);
      const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
      const actor = (await h.services.accounts.resolveWebSession(token))!;
      return { client, actor, acme };
    }

    /** A fresh question by the system, so each test writes on a topic of its own. */
    async function question(title: string) {
      const h = await hamlet();
      const acme = (await h.store.communities.getBySlug('acme'))!;
      const made = await writeApplied(h.services.writes, system, acme, 'topic.create', {
        category: 'support',
        title,
        body: `${title}: what we tried, what happened.`,
      });
      return made.topic;
    }

    /** The topic as an agent reads it (get_topic). */
    async function topicOf(slug: string) {
      const h = await hamlet();
      const out = await h.tool('acme', await h.agentKey(), 'get_topic', { topic: slug });
      assert.ok(out.result && !out.result.isError, JSON.stringify(out));
      return out.result.structuredContent as {
        posts: {
          id: string;
          body: string;
          environment?: Record<string, string>;
          confidence?: any;
        }[];
      };
    }

    const textareaOf = (html: string, name: string) =>
      new RegExp(`<textarea[^>]*name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html)?.[1] ?? '';

    test('a reply posted with where it ran shows it on the topic page and in get_topic', async () => {
      const { client } = await person();
      const topic = await question('Webhook retries stop after a restart');
      await client.get(`/t/${topic.slug}`);
      assert.match(client.last!.text, /<summary>Where did you run this\? \(optional\)<\/summary>/);
      const posted = await client.post(`/t/${topic.slug}/reply`, {
        body: 'The outbox keeps them: they resume on the next start.',
        environment: 'Node 22.4\npostgres=16\n\nos: debian 12',
      });
      assert.equal(posted.status, 200);
      assert.match(visible(posted.text), /Your reply was posted\./);
      assert.match(visible(posted.text), /Ran on node 22\.4 ?, postgres 16 ?, os debian 12/);

      const read = await topicOf(topic.slug);
      const reply = read.posts.find((p) => p.body.startsWith('The outbox keeps them'))!;
      assert.deepEqual(reply.environment, { node: '22.4', postgres: '16', os: 'debian 12' });
      const asked = read.posts.find((p) => !p.body.startsWith('The outbox keeps them'))!;
      assert.equal(asked.environment, undefined, 'a post without one says nothing');
    });

    test('a line the form cannot read comes back with what to fix, the reply and the pairs kept', async () => {
      const { client } = await person();
      const topic = await question('Exports stop after the first thousand rows');
      await client.get(`/t/${topic.slug}`);
      const body = 'Raise the batch size in the exporter settings.';
      const cases: [string, RegExp][] = [
        [
          'node 22.4\npostgres',
          /line 2 \("postgres"\) has no version: write the name, a space and the version/,
        ],
        ['nöde 22', /line 1: "nöde" is not an environment name: use 1-40 of a-z, 0-9/],
        [`node ${'9'.repeat(41)}`, /line 1: the version of "node" must be at most 40 characters/],
        ['node 20\nNode 22', /line 2: "node" is already on line 1: give each name once/],
        [
          Array.from({ length: 12 }, (_, i) => `tool${i} 1.${i}`).join('\n'),
          /has 12 pairs: at most 10, so remove 2 lines/,
        ],
      ];
      for (const [environment, message] of cases) {
        const back = await client.post(`/t/${topic.slug}/reply`, { body, environment });
        assert.equal(back.status, 400, environment);
        assert.match(visible(back.text), message);
        assert.equal(textareaOf(back.text, 'body'), body, 'the reply stays in the form');
        assert.ok(textareaOf(back.text, 'environment').includes(environment.split('\n')[0]!));
        assert.match(back.text, /<details class="environment" open>/, 'the field is shown open');
        assert.match(back.text, /id="f-environment"[^>]*aria-invalid="true"/);
      }
      const read = await topicOf(topic.slug);
      assert.equal(read.posts.length, 1, 'nothing was posted');
    });

    test('a question asked with where it ran shows it', async () => {
      const { client } = await person();
      await client.get('/ask');
      const asked = await client.post('/ask', {
        category: 'support',
        title: 'Search misses answers worded differently',
        body: 'Searching "timeout" does not find the post about "deadline exceeded".',
        environment: 'sqlite 3.45\nos macos 14',
      });
      assert.equal(asked.status, 200);
      assert.match(visible(asked.text), /Your question was posted\./);
      assert.match(visible(asked.text), /Ran on sqlite 3\.45 ?, os macos 14/);
      const bad = await client.get('/ask').then(() =>
        client.post('/ask', {
          category: 'support',
          title: 'Another question about search',
          body: 'What we tried and what happened.',
          environment: 'sqlite',
        }),
      );
      assert.equal(bad.status, 400);
      assert.match(visible(bad.text), /line 1 \("sqlite"\) has no version/);
      assert.equal(textareaOf(bad.text, 'body'), 'What we tried and what happened.');
    });

    test('"This worked" takes where it ran, and the answer lists it among the environments it worked in', async () => {
      const h = await hamlet();
      const asker = await person();
      const reporter = await person();
      const topic = await question('Signature check fails behind a proxy');
      const { post: answer } = await writeApplied(
        h.services.writes,
        system,
        asker.acme,
        'post.create',
        {
          topic: topic.id,
          body: 'Verify against the raw body, before any JSON parsing.',
        },
      );
      await writeApplied(h.services.writes, system, asker.acme, 'solution.mark', {
        topic: topic.id,
        post: answer.id,
      });
      const page = await reporter.client.get(`/t/${topic.slug}`);
      assert.match(page.text, new RegExp(`id="environment-${answer.id}"`));
      const bad = await reporter.client.post(`/t/${topic.slug}/outcome`, {
        post: answer.id,
        worked: 'true',
        environment: 'node',
      });
      assert.equal(bad.status, 400);
      assert.match(visible(bad.text), /line 1 \("node"\) has no version/);

      await reporter.client.get(`/t/${topic.slug}`);
      const done = await reporter.client.post(`/t/${topic.slug}/outcome`, {
        post: answer.id,
        worked: 'true',
        environment: 'node 22.9\nexpress 5',
      });
      assert.match(visible(done.text), /the answer now counts your confirmation/);
      const read = await topicOf(topic.slug);
      const shown = read.posts.find((p) => p.id === answer.id)!;
      assert.deepEqual(shown.confidence.worked_in, [{ node: '22.9', express: '5' }]);
    });

    test('REST takes environment on a reply, and its OpenAPI document describes it', async () => {
      const h = await hamlet();
      const key = await h.agentKey();
      const topic = await question('Rate limits differ between instances');
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const posted = await h.get('acme', `/api/v1/topics/${topic.slug}/posts`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          body: 'Each instance counts on its own: divide the budget by the instances.',
          environment: { hamlet: '1.4', postgres: '16' },
        }),
      });
      assert.equal(posted.status, 201, posted.text);
      const read = await topicOf(topic.slug);
      assert.deepEqual(read.posts.at(-1)!.environment, { hamlet: '1.4', postgres: '16' });

      const doc = (await h.get('acme', '/api/v1/openapi.json')).json();
      const bodyOf = (path: string) =>
        JSON.stringify(doc.paths[path].post.requestBody.content['application/json'].schema);
      for (const path of ['/topics', '/topics/{topic}/posts', '/posts/{post}/outcome'])
        assert.match(bodyOf(path), /"environment"/, path);
    });
  });
}

environmentOn('SQLite', fileHamlet(ENV, { demo: true }));
const pg = await freshPostgresDatabase('web_environment');
if (pg.ok) {
  environmentOn('PostgreSQL', fileHamlet({ ...ENV, DATABASE_URL: pg.url }, { demo: true }));
  after(() => pg.drop());
}
