// What feed readers, crawlers and link previews get from a community's web: Atom feeds (parsed
// with a maintained feed parser) of the latest topics, a category, a tag and a topic, each
// advertised by its page; canonical host-form links and Open Graph tags in the head; a sitemap
// index of files of public content only; robots.txt; the site icon. A private community shows none of it to a visitor.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFeed } from '@rowanmanning/feed-parser';
import { raw } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

let h: TestHamlet;
before(async () => {
  h = await startTestHamlet({}, { demo: true });
});
after(() => h.stop());

const acme = (path: string) => raw(h.hostUrl('acme.localhost', path));
const origin = () => `http://acme.localhost:${h.port}`;
const TOPIC = 'verifying-the-hamlet-signature-header';

function feedLink(html: string): string | undefined {
  return /<link rel="alternate" type="application\/atom\+xml" title="[^"]*" href="([^"]+)">/.exec(
    html,
  )?.[1];
}

test('the home page advertises /latest.atom, a valid Atom feed of the newest topics with their links', async () => {
  const home = await acme('/');
  assert.equal(feedLink(home.text), '/latest.atom');
  const res = await acme('/latest.atom');
  assert.equal(res.status, 200);
  assert.match(res.headers['content-type'] ?? '', /^application\/atom\+xml/);
  const feed = parseFeed(res.text);
  assert.equal(feed.meta.type, 'atom');
  assert.match(feed.title ?? '', /Acme/i);
  assert.ok(feed.items.length > 0 && feed.items.length <= 30, `${feed.items.length} entries`);
  for (const item of feed.items) {
    assert.ok(item.title, 'every entry has a title');
    assert.match(item.url ?? '', new RegExp(`^${origin()}/t/[a-z0-9-]+$`));
    assert.ok(item.published && item.updated, 'dates');
    assert.ok(item.authors[0]?.name, 'an author');
  }
  const dates = feed.items.map((i) => i.published!.getTime());
  assert.deepEqual(
    dates,
    [...dates].sort((a, b) => b - a),
    'newest first',
  );
});

test("a topic's page advertises its feed: every post, its rendered HTML, linked to the post", async () => {
  const page = await acme(`/t/${TOPIC}`);
  assert.equal(feedLink(page.text), `/t/${TOPIC}.atom`);
  const feed = parseFeed((await acme(`/t/${TOPIC}.atom`)).text);
  assert.ok(feed.items.length >= 2, 'the question and its replies');
  assert.match(feed.items[0]!.title ?? '', /signature/i);
  assert.match(feed.items[1]!.title ?? '', /^Re: /);
  for (const item of feed.items) {
    assert.match(item.url ?? '', new RegExp(`^${origin()}/t/${TOPIC}#post-[0-9a-f-]{36}$`));
    assert.match(item.content ?? '', /<p>/, 'the rendered post');
    assert.doesNotMatch(item.content ?? '', /<script/i);
  }
  assert.equal((await acme('/t/no-such-topic.atom')).status, 404);
});

test('category and tag feeds list only their topics; tags on a topic link to their page', async () => {
  const page = await acme(`/t/${TOPIC}`);
  const category = /href="\/categories\/([a-z0-9-]+)"/.exec(page.text)![1]!;
  const listing = await acme(`/categories/${category}`);
  assert.equal(feedLink(listing.text), `/categories/${category}.atom`);
  const feed = parseFeed((await acme(`/categories/${category}.atom`)).text);
  assert.ok(feed.items.length > 0);
  for (const item of feed.items)
    assert.ok(
      item.categories.some((c) => c.term),
      'entries name their category',
    );
  assert.equal((await acme('/categories/no-such-category.atom')).status, 404);
  assert.equal((await acme('/categories/no-such-category')).status, 404);

  const latest = parseFeed((await acme('/latest.atom')).text);
  const tagged = latest.items.find((i) => i.categories.length > 1);
  if (tagged) {
    const tag = tagged.categories.at(-1)!.term;
    const tagFeed = parseFeed((await acme(`/tags/${encodeURIComponent(tag)}.atom`)).text);
    assert.ok(tagFeed.items.some((i) => i.url === tagged.url));
    const tagPage = await acme(`/tags/${encodeURIComponent(tag)}`);
    assert.equal(tagPage.status, 200);
    assert.match(tagPage.text, new RegExp(`Tagged “${tag}”`));
  }
});

test('the head: canonical host-form URL (also through the path form), description and Open Graph', async () => {
  for (const url of [
    h.hostUrl('acme.localhost', `/t/${TOPIC}`),
    `http://localhost:${h.port}/c/acme/t/${TOPIC}`,
  ]) {
    const { text } = await raw(url);
    assert.match(text, new RegExp(`<link rel="canonical" href="${origin()}/t/${TOPIC}">`), url);
    assert.match(text, /<meta name="description" content="[^"]{20,200}">/);
    assert.match(text, /<meta property="og:type" content="article">/);
    assert.match(text, new RegExp(`<meta property="og:url" content="${origin()}/t/${TOPIC}">`));
  }
  const feed = feedLink((await raw(`http://localhost:${h.port}/c/acme/`)).text);
  assert.equal(feed, '/c/acme/latest.atom', 'the path form links its feed in the path form');
});

test('feeds, sitemaps and robots.txt answer in the form the request came in, with the port', async () => {
  const forms = [
    {
      base: `http://localhost:${h.port}/c/acme`,
      get: (p: string) => raw(`http://localhost:${h.port}/c/acme${p}`),
    },
    { base: origin(), get: acme },
  ];
  for (const { base, get } of forms) {
    const atom = (await get('/latest.atom')).text;
    const links = [...atom.matchAll(/<(?:link[^>]*href|id)[=>]"?([^"<]+)/g)].map((m) => m[1]!);
    assert.ok(links.length > 3, 'links and ids');
    for (const link of links)
      assert.ok(link.startsWith(`${base}/`), `${link} starts with ${base}/`);
    const topic = (await get(`/t/${TOPIC}.atom`)).text;
    assert.match(
      topic,
      new RegExp(
        `<link rel="self" type="application/atom\\+xml" href="${base}/t/${TOPIC}\\.atom"/>`,
      ),
    );
    assert.match(
      (await get('/robots.txt')).text,
      new RegExp(`^Sitemap: ${base}/sitemap\\.xml$`, 'm'),
    );
    for (const loc of locsOf((await get('/sitemap.xml')).text))
      assert.ok(loc.startsWith(`${base}/sitemaps/`), loc);
  }
});

/** The <loc> values of a sitemap or sitemap index. */
const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

/** Every URL a sitemap index lists, read through its files (each checked to be a urlset). */
async function sitemapUrls(host: string): Promise<string[]> {
  const index = await raw(h.hostUrl(host, '/sitemap.xml'));
  assert.equal(index.status, 200);
  assert.match(index.headers['content-type'] ?? '', /^application\/xml/);
  assert.match(
    index.text,
    /<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
  );
  const urls: string[] = [];
  for (const file of locsOf(index.text)) {
    const u = new URL(file);
    assert.equal(u.host, `${host}:${h.port}`, 'the files are on the host the index was asked on');
    const res = await raw(h.hostUrl(host, u.pathname));
    assert.equal(res.status, 200, file);
    assert.match(res.text, /<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
    urls.push(...locsOf(res.text));
  }
  return urls;
}

test('sitemap.xml is an index of files listing the public community’s pages and topics; the apex’s lists public communities only', async () => {
  const locs = await sitemapUrls('acme.localhost');
  assert.ok(locs.includes(`${origin()}/`));
  assert.ok(locs.includes(`${origin()}/t/${TOPIC}`));
  assert.ok(
    locs.every((l) => l.startsWith(`${origin()}/`)),
    'only this community',
  );
  assert.equal(new Set(locs).size, locs.length, 'no URL twice');
  const apex = await sitemapUrls('localhost');
  assert.ok(apex.some((l) => /acme/.test(l)));
  assert.ok(!apex.some((l) => /skunkworks/.test(l)));
  assert.match((await acme('/robots.txt')).text, new RegExp(`Sitemap: ${origin()}/sitemap.xml`));
});

test('a private community: no feed, no sitemap and a robots.txt that disallows everything', async () => {
  const skunk = (path: string) => raw(h.hostUrl('skunkworks.localhost', path));
  assert.equal((await skunk('/latest.atom')).status, 404);
  assert.equal((await skunk('/sitemap.xml')).status, 404);
  for (const file of ['/sitemaps/pages.xml', '/sitemaps/topics-1.xml'])
    assert.equal((await skunk(file)).status, 404, file);
  assert.equal((await raw(`http://localhost:${h.port}/c/skunkworks/latest.atom`)).status, 404);
  const robots = await skunk('/robots.txt');
  assert.equal(robots.text, 'User-agent: *\nDisallow: /\n');
});

test('/favicon.ico is an icon on every host, known or not', async () => {
  for (const host of ['acme.localhost', 'localhost', 'nowhere.example']) {
    const res = await raw(h.hostUrl(host, '/favicon.ico'));
    assert.equal(res.status, 200, host);
    assert.equal(res.headers['content-type'], 'image/x-icon');
  }
  const bytes = new Uint8Array(
    await (await fetch(`http://127.0.0.1:${h.port}/favicon.ico`)).arrayBuffer(),
  );
  assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
  assert.deepEqual([...bytes.subarray(22, 26)], [0x89, 0x50, 0x4e, 0x47], 'holding a PNG');
  assert.match((await acme('/')).text, /<link rel="icon" href="\/favicon.ico">/);
});
