// Sitemaps whose cost follows the file asked for, never the number of communities or topics:
// /sitemap.xml is a sitemap index (sitemaps.org) of files of at most N URLs (50,000 in production,
// 3 here so that paging shows with a handful of rows). The apex's files list every public
// community once and no private one; a public community's index lists its pages file and its
// topic files, which list every listed topic once (not a deleted, merged or hidden one), in the
// form the request came in; a file past the last, or of a private community, is 404.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { fileHamlet, type FileHamlet } from '../helpers/in-process.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const PER_FILE = 3;
const hamlet = fileHamlet({}, { sitemapUrlsPerFile: PER_FILE });
const system = systemActor('test');

const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

/** The files an index lists, and every URL in them (each file checked: a urlset of ≤ PER_FILE). */
async function read(h: FileHamlet, slug: string | null, prefix = '') {
  const index = await h.get(slug, `${prefix}/sitemap.xml`);
  assert.equal(index.status, 200);
  assert.match(index.text, /^<\?xml[^>]*>\s*<sitemapindex /);
  const files = locsOf(index.text);
  const urls: string[] = [];
  for (const file of files) {
    const res = await h.get(slug, new URL(file).pathname);
    assert.equal(res.status, 200, file);
    assert.match(res.text, /<urlset /);
    const locs = locsOf(res.text);
    assert.ok(locs.length <= PER_FILE, `${file}: ${locs.length} URLs`);
    urls.push(...locs);
  }
  return { files, urls };
}

const create = (h: FileHamlet, slug: string, visibility: 'public' | 'private' = 'public') =>
  h.services.communities.create(system, { slug, name: slug, visibility }, { starter: true });

test('the apex: an index of files of at most N public communities each, every one listed once', async () => {
  const h = await hamlet();
  const before = await h.store.communities.lastOrdinal();
  const made = ['map-a', 'map-b', 'map-c', 'map-d', 'map-e', 'map-f', 'map-g'];
  for (const slug of made) await create(h, slug);
  await create(h, 'map-private', 'private');
  const { files, urls } = await read(h, null);
  const last = await h.store.communities.lastOrdinal();
  assert.equal(last, before + made.length + 1, 'each new community took the next ordinal');
  assert.equal(files.length, Math.ceil(last / PER_FILE));
  assert.deepEqual(
    files.map((f) => new URL(f).pathname),
    files.map((_, i) => `/sitemaps/communities-${i + 1}.xml`),
  );
  const listed = urls.map((u) => new URL(u).pathname.replace(/^\/c\/([^/]+)\/?$/, '$1'));
  for (const slug of made) assert.equal(listed.filter((s) => s === slug).length, 1, slug);
  assert.ok(!listed.includes('map-private'), 'no private community');
  assert.equal(new Set(urls).size, urls.length, 'no URL twice');
  assert.equal((await h.get(null, `/sitemaps/communities-${files.length + 1}.xml`)).status, 404);
  assert.equal((await h.get(null, '/sitemaps/communities-0.xml')).status, 404);
  assert.equal((await h.get(null, '/sitemaps/topics-1.xml')).status, 404, 'not on the apex');
});

test('a community: its pages file and topic files of at most N, listed topics only, each once', async () => {
  const h = await hamlet();
  const slug = 'map-topics';
  await create(h, slug);
  const community = (await h.store.communities.getBySlug(slug))!;
  const topics = [];
  for (let i = 1; i <= 8; i++)
    topics.push(
      (
        await writeApplied(h.services.writes, system, community, 'topic.create', {
          category: 'general',
          title: `Sitemap paging question number ${i}`,
          body: `What happens to question ${i} in the sitemap?`,
        })
      ).topic,
    );
  const scope = h.store.community(community.id);
  const [deleted, hidden] = [topics[1]!, topics[4]!];
  await scope.moderatorActions.setTopic(deleted.id, {
    deleted: { at: new Date().toISOString(), by: 'Mo', reason: 'Spam.' },
  });
  const question = (await scope.posts.getFirst(hidden.id))!;
  await scope.moderation.hide({
    postId: question.id,
    topicId: hidden.id,
    position: 1,
    cause: 'moderator',
    note: 'Spam.',
    byName: 'Mo',
  });

  const origin = `http://${h.host(slug)}`;
  const { files, urls } = await read(h, slug);
  assert.deepEqual(
    files.map((f) => f.replace(origin, '')),
    [
      '/sitemaps/pages.xml',
      '/sitemaps/topics-1.xml',
      '/sitemaps/topics-2.xml',
      '/sitemaps/topics-3.xml',
    ],
  );
  const shown = topics
    .filter((t) => t !== deleted && t !== hidden)
    .map((t) => `${origin}/t/${t.slug}`);
  assert.deepEqual(urls, [`${origin}/`, `${origin}/categories/general`, ...shown]);
  assert.equal((await h.get(slug, '/sitemaps/topics-4.xml')).status, 404);
  assert.equal((await h.get(slug, '/sitemaps/communities-1.xml')).status, 404);

  // The path form lists the path form, file names included.
  const byPath = await read(h, null, `/c/${slug}`);
  const apex = `http://${h.host(null)}/c/${slug}`;
  assert.equal(byPath.files[1], `${apex}/sitemaps/topics-1.xml`);
  assert.ok(byPath.urls.includes(`${apex}/t/${topics[0]!.slug}`));
  assert.match(
    (await h.get(null, `/c/${slug}/robots.txt`)).text,
    new RegExp(`Sitemap: ${apex}/sitemap.xml`),
  );

  // Private from now on: no sitemap, no file.
  await h.services.communities.updateSettings(system, community, { visibility: 'private' });
  for (const path of ['/sitemap.xml', '/sitemaps/pages.xml', '/sitemaps/topics-1.xml'])
    assert.equal((await h.get(slug, path)).status, 404, path);
});
