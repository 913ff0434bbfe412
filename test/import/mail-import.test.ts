// The importer end to end on SQLite: fixtures in a directory and an mbox, idempotent re-runs, and a
// SIGKILL in the middle of a run followed by a resume that ends exactly like a clean run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.ts';
import { openStore } from '../../src/store/open.ts';
import { CommunityService } from '../../src/domain/communities.ts';
import { ContentService } from '../../src/domain/content.ts';
import { CategoryService } from '../../src/domain/categories.ts';
import { ContentEvents } from '../../src/domain/events.ts';
import { AuditService } from '../../src/domain/identity/audit.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';
import { WriteService } from '../../src/domain/writes/write-service.ts';
import { anonymous, systemActor } from '../../src/domain/actor.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { importMail } from '../../src/import/mail/importer.ts';
import { hamCorpusDirs } from '../../src/import/ham-corpus.ts';
import { answer, bytes, followUp, noId, question, sameSubjectNewTopic } from './fixtures.ts';
import { snapshot } from './snapshot.ts';
import { childScript } from '../helpers/child-script.ts';
import { sqliteFromTemplate } from '../helpers/template.ts';

const tmp = mkdtempSync(join(tmpdir(), 'hamlet-import-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

/** A database of its own, copied from the migrated template, with the community "lists". */
async function freshStore(name: string) {
  const path = join(tmp, `${name}.db`);
  await sqliteFromTemplate(path, 'migrated');
  const config = loadConfig({ DATABASE_URL: `sqlite:${path}` });
  const store = await openStore(config.databaseUrl);
  await new CommunityService(store).create(systemActor(), { slug: 'lists', name: 'Lists' });
  return { config, store };
}

test('fixtures import into topics and posts with original dates, authors by name only, twice-safe', async () => {
  const dir = join(tmp, 'maildir');
  mkdirSync(join(dir, 'cur'), { recursive: true });
  writeFileSync(join(dir, 'cur', '1.eml'), question);
  writeFileSync(join(dir, 'cur', '2.eml'), answer);
  writeFileSync(join(dir, 'notes.json'), '{"not": "mail"}');
  const mbox = join(tmp, 'archive.mbox');
  writeFileSync(
    mbox,
    Buffer.concat(
      [followUp, noId, sameSubjectNewTopic, question].map((m) =>
        Buffer.concat([
          Buffer.from('From someone@example.org Thu Sep  5 08:00:00 2002\n'),
          m,
          Buffer.from('\n'),
        ]),
      ),
    ),
  );

  const { config, store } = await freshStore('fixtures');
  try {
    const report = await importMail(
      store,
      { config: config },
      {
        communitySlug: 'lists',
        paths: [dir, mbox],
      },
    );
    assert.equal(report.skippedFiles, 1);
    assert.equal(report.duplicates, 1); // the question is in both the directory and the mbox
    assert.deepEqual(
      [
        report.messages,
        report.threads,
        report.topicsCreated,
        report.postsCreated,
        report.peopleCreated,
      ],
      [5, 3, 3, 5, 4],
    );

    const community = (await store.communities.getBySlug('lists'))!;
    const content = new ContentService(store, config);
    const topics = (await content.listTopics(anonymous, community, { sort: 'created' })).topics;
    assert.deepEqual(
      topics.map((t) => [t.title, t.postCount, t.category.slug]),
      [
        ['Weekly meeting notes', 1, 'mailing-list'],
        ['Weekly meeting notes', 1, 'mailing-list'],
        ['Café crème install fails', 3, 'mailing-list'],
      ],
    );
    const cafe = topics[2]!;
    assert.deepEqual(cafe.tags, ['users']);
    assert.equal(cafe.createdAt, '2002-09-03T08:00:00.000Z');
    const { posts } = await content.getTopic(anonymous, community, { topic: cafe.id });
    assert.deepEqual(
      posts.map((p) => [p.author.name, p.createdAt]),
      [
        ['Renée Dupré', '2002-09-03T08:00:00.000Z'],
        ['Bob (Builder)', '2002-09-03T10:30:00.000Z'],
        ['Renée Dupré', '2002-09-04T07:00:00.000Z'], // same address: the same person, first name kept
      ],
    );
    assert.equal(
      posts[0]!.author.id,
      posts[2]!.author.id,
      'the same address is the same imported person',
    );
    const everything = JSON.stringify({ topics, posts });
    assert.doesNotMatch(
      everything,
      /[\w.]+@example\.(org|net|com)/,
      'no e-mail address is shown anywhere',
    );
    assert.match(
      posts[0]!.html,
      /<p>The café installer stops with an error\.<br \/>\n# this shell comment/,
    );

    const again = await importMail(
      store,
      { config: config },
      {
        communitySlug: 'lists',
        paths: [dir, mbox],
      },
    );
    assert.deepEqual(
      [again.topicsCreated, again.postsCreated, again.peopleCreated, again.alreadyImported],
      [0, 0, 0, 5],
    );
    assert.equal((await snapshot(store, 'lists')).posts, 5);
  } finally {
    await store.close();
  }
});

test('a reply arriving in a later import joins the topic of its parent', async () => {
  const { config, store } = await freshStore('later');
  try {
    await importMail(
      store,
      { config: config },
      {
        communitySlug: 'lists',
        messages: [{ source: 'q', raw: question }],
      },
    );
    const report = await importMail(
      store,
      { config: config },
      {
        communitySlug: 'lists',
        messages: [{ source: 'a', raw: answer }],
      },
    );
    assert.deepEqual([report.topicsCreated, report.postsCreated], [0, 1]);
    const snap = await snapshot(store, 'lists');
    assert.deepEqual([snap.topics, snap.posts], [1, 2]);
  } finally {
    await store.close();
  }
});

test('imported history notifies nobody and queues nothing: an @mention of a real person, a watched category', async () => {
  const { config, store } = await freshStore('history');
  try {
    const lists = (await store.communities.getBySlug('lists'))!;
    const scope = store.community(lists.id);
    const system = systemActor('test');
    const dana = await store.people.create({ displayName: 'Dana', handle: 'dana' });
    const writes = new WriteService(store, config, new ContentEvents(), new AuditService(store));
    await new CategoryService(writes.runner).create(system, lists, {
      slug: 'archive',
      name: 'Archive',
    });
    const archive = (await scope.categories.getBySlug('archive'))!;
    await scope.notifications.setLevel(dana.id, 'category', archive.id, 'watch');
    // Every write of the community would wait for a moderator: the system's writes do not.
    for (const kind of ['topic.create', 'post.create'])
      await scope.access.policies.set(kind, 'approval');
    const mail = (id: string, date: string, extra: string, body: string) =>
      bytes(
        `From: Old Timer <old@example.org>\nSubject: Re: Who runs the build box?\nDate: ${date}\nMessage-ID: <${id}@example.org>\n${extra}Content-Type: text/plain\n\n${body}\n`,
      );
    const report = await importMail(
      store,
      { config },
      {
        communitySlug: 'lists',
        categorySlug: 'archive',
        messages: [
          {
            source: 'q',
            raw: mail('h1', 'Mon, 02 Sep 2002 09:00:00 +0000', '', 'Ask @dana, she set it up.'),
          },
          {
            source: 'a',
            raw: mail(
              'h2',
              'Mon, 02 Sep 2002 11:00:00 +0000',
              'In-Reply-To: <h1@example.org>\n',
              'Thanks @dana, it works again.',
            ),
          },
        ],
      },
    );
    assert.deepEqual([report.topicsCreated, report.postsCreated], [1, 2]);
    assert.equal(await scope.notifications.unreadCount(dana.id), 0);
    assert.equal((await scope.access.approvals.list({ limit: 10 })).items.length, 0);

    // The same mention written today, without an original date, does notify her.
    await writeApplied(writes, system, lists, 'topic.create', {
      category: 'archive',
      title: 'Who runs the build box now?',
      body: 'Ask @dana, she set it up.',
    });
    assert.equal(await scope.notifications.unreadCount(dana.id), 1); // mentioned (she watches it too)
  } finally {
    await store.close();
  }
});

test('bad targets are refused with what to do', async () => {
  const { config, store } = await freshStore('errors');
  try {
    await assert.rejects(
      importMail(store, { config: config }, { communitySlug: 'nope', paths: [tmp] }),
      (e: unknown) =>
        e instanceof DomainError &&
        e.code === 'not_found' &&
        /hamlet community create nope/.test(e.message),
    );
    await assert.rejects(
      importMail(
        store,
        { config: config },
        {
          communitySlug: 'lists',
          categorySlug: 'missing',
          paths: [tmp],
        },
      ),
      (e: unknown) => e instanceof DomainError && /No category "missing"/.test(e.message),
    );
    await assert.rejects(
      importMail(
        store,
        { config: config },
        {
          communitySlug: 'lists',
          paths: [join(tmp, 'absent')],
        },
      ),
      /Cannot read/,
    );
  } finally {
    await store.close();
  }
});

async function runChild(
  dbUrl: string,
  batch: number,
  paths: string[],
  killAfter?: number,
): Promise<{ killed: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...childScript(import.meta.url, './resume-child.ts'), 'lists', String(batch), ...paths],
      {
        env: { ...process.env, DATABASE_URL: dbUrl },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const done = [...output.matchAll(/progress (\d+) /g)].map((m) => Number(m[1])).pop() ?? 0;
      if (killAfter !== undefined && !killed && done >= killAfter) {
        killed = child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL' || code === 0) resolve({ killed: signal === 'SIGKILL', output });
      else reject(new Error(`child failed (${code}): ${output}`));
    });
  });
}

const ham = hamCorpusDirs();

test(
  'SIGKILL half-way, then a re-run: same topics and posts as one clean run',
  { skip: ham ? false : 'ham corpus not installed' },
  async () => {
    const corpus = [ham![2]!]; // hard-ham-1: 250 messages
    const crashed = await freshStore('crashed');
    await crashed.store.close();

    const first = await runChild(crashed.config.databaseUrl, 20, corpus, 60);
    assert.equal(first.killed, true, `the child should have been killed mid-way: ${first.output}`);
    const partialStore = await openStore(crashed.config.databaseUrl);
    const partial = await snapshot(partialStore, 'lists');
    await partialStore.close();
    assert.ok(
      partial.imported > 0 && partial.imported < 250,
      `partial import expected, got ${partial.imported}`,
    );
    assert.equal(partial.posts, partial.imported, 'no half-written thread survives the crash');

    const resumed = await runChild(crashed.config.databaseUrl, 20, corpus);
    assert.match(resumed.output, /"alreadyImported":[1-9]/);
    // The reference: one clean run (in this process: no crash to survive).
    const clean = await freshStore('clean');
    await importMail(
      clean.store,
      { config: clean.config },
      {
        communitySlug: 'lists',
        paths: corpus,
        batchSize: 1000,
      },
    );

    const a = await openStore(crashed.config.databaseUrl);
    const b = clean.store;
    try {
      const [after, reference] = [await snapshot(a, 'lists'), await snapshot(b, 'lists')];
      assert.equal(reference.imported, 250);
      assert.deepEqual(after, reference);
    } finally {
      await a.close();
      await b.close();
    }
  },
);

test(
  'the real SpamAssassin ham corpus imports fully, and a second run imports nothing',
  { skip: ham ? false : 'ham corpus not installed' },
  async () => {
    const { config, store } = await freshStore('ham');
    try {
      const first = await importMail(
        store,
        { config: config },
        {
          communitySlug: 'lists',
          paths: ham!,
        },
      );
      // 4150 ham messages (each also shipped as a JSON copy, which is not mail and is skipped).
      assert.equal(first.messages, 4150);
      assert.equal(first.skippedFiles, 4150);
      assert.equal(first.unparseable, 0);
      assert.equal(first.postsCreated, first.messages);
      assert.equal(first.topicsCreated, first.threads);
      assert.ok(first.threads > 1000 && first.threads < 3500, `threads: ${first.threads}`);
      const snap = await snapshot(store, 'lists');
      assert.deepEqual([snap.topics, snap.posts, snap.imported], [first.threads, 4150, 4150]);
      assert.ok(
        snap.rows.every((r) => r.startsWith('2002-') || r.startsWith('2001-')),
        'topics keep their 2001/2002 dates',
      );

      const second = await importMail(
        store,
        { config: config },
        {
          communitySlug: 'lists',
          paths: ham!,
        },
      );
      assert.deepEqual(
        [second.topicsCreated, second.postsCreated, second.alreadyImported],
        [0, 0, 4150],
      );
    } finally {
      await store.close();
    }
  },
);
