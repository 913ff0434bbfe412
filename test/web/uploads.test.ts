// Uploads without a browser: the reply composer attaches a file with JavaScript off (a multipart
// form; the file's Markdown comes back in the text) and the posted image shows with its size; a
// question takes files as a reply does; a file is served with headers that keep it from running
// as a page; an HTML page named ".png" is refused, saying so; the size limit and the community's
// quota hold (and only the upload routes take bodies that large); another community's host, the
// apex, and a visitor of a private community get 404.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { systemActor } from '../../src/domain/actor.ts';
import { fileHamlet, type FileHamlet } from '../helpers/in-process.ts';
import { png } from '../helpers/png.ts';
import { visible, WebClient } from './client.ts';

const hamlet = fileHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
// Small limits, to reach them: 512 KiB a file, 1.2 MB a community, 4 KiB other REST bodies.
const tight = fileHamlet(
  {
    HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000',
    HAMLET_UPLOAD_MAX_BYTES: String(512 * 1024),
    HAMLET_UPLOAD_QUOTA_BYTES: '1200000',
    HAMLET_REST_MAX_BODY_BYTES: '4096',
  },
  { demo: true },
);
const PASSWORD = 'correct horse battery';
const TOPIC = 'verifying-the-hamlet-signature-header';
let n = 0;

/** A member of `slug` signed in on its host. */
async function member(h: FileHamlet, slug: string) {
  const email = `uploader${++n}@example.org`;
  const system = systemActor('test');
  const person = await h.services.accounts.createUser(system, {
    email,
    password: PASSWORD,
    name: `Up ${n}`,
  });
  const community = (await h.store.communities.getBySlug(slug))!;
  await h.services.accounts.addMember(system, community, { email, role: 'member' });
  const client = new WebClient(`http://${h.host(slug)}`);
  client.setCookie('hamlet_session', (await h.services.accounts.createWebSession(person.id)).token);
  return client;
}

const textarea = (html: string) =>
  /<textarea[^>]*name="body"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? '';
const uploadPath = (markdown: string) => /\/uploads\/[0-9a-f-]{36}\/[\w.-]+/.exec(markdown)![0];

test('Attach without JavaScript adds the image to the reply; posted, it shows with its size and is served safely', async () => {
  const h = await hamlet();
  const client = await member(h, 'acme');
  const topic = await client.get(`/t/${TOPIC}`);
  assert.match(
    topic.text,
    /<form method="post" action="\/t\/[^"]+\/reply" enctype="multipart\/form-data">/,
  );
  assert.match(
    topic.text,
    /<label for="f-file">Attach a file \(optional\)<\/label><input type="file" id="f-file" name="file"/,
  );
  const image = png(64, 48);
  const attached = await client.postFiles(
    `/t/${TOPIC}/reply`,
    { body: 'Here is the chart:', action: 'attach' },
    { file: new File([image], 'Sales chart.PNG', { type: 'image/png' }) },
  );
  assert.equal(attached.status, 200);
  assert.match(visible(attached.text), /"Sales-chart\.png" is attached/);
  const body = textarea(attached.text);
  assert.match(
    body,
    /^Here is the chart:\n\n!\[Sales-chart\]\(http:\/\/acme\.[^)]+\/uploads\/[0-9a-f-]{36}\/Sales-chart\.png\)\n$/,
  );
  const path = uploadPath(body);

  const posted = await client.post(`/t/${TOPIC}/reply`, { body });
  assert.match(visible(posted.text), /Your reply was posted/);
  assert.match(
    posted.text,
    new RegExp(
      `<img src="http://acme\\.[^"]+${path}" alt="Sales-chart" width="64" height="48" loading="lazy" />`,
    ),
  );

  const served = await client.get(path);
  assert.equal(served.status, 200);
  assert.equal(served.headers['content-type'], 'image/png');
  assert.equal(served.headers['x-content-type-options'], 'nosniff');
  assert.equal(served.headers['content-disposition'], 'inline; filename="Sales-chart.png"');
  assert.equal(served.headers['content-security-policy'], "default-src 'none'; sandbox");
  assert.equal(served.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(served.headers.etag, `"${createHash('sha256').update(image).digest('hex')}"`);
  assert.deepEqual(served.bytes, Buffer.from(image));
  assert.equal(
    (await client.get(path.replace('Sales-chart', 'other'))).status,
    404,
    'by its own name only',
  );
  // In the path form the page links the file in its own form, where it is served too.
  const pathForm = await h.get(null, `/c/acme/t/${TOPIC}`);
  assert.match(pathForm.text, new RegExp(`<img src="/c/acme${path}" alt="Sales-chart"`));
  assert.equal((await h.get(null, `/c/acme${path}`)).headers['content-type'], 'image/png');
});

test('a question takes an attached image too, shown in its first post', async () => {
  const h = await hamlet();
  const client = await member(h, 'acme');
  const ask = await client.get('/ask');
  assert.match(ask.text, /enctype="multipart\/form-data"/);
  const attached = await client.postFiles(
    '/ask',
    { category: 'support', title: 'Why is this graph flat?', body: 'See:', action: 'attach' },
    { file: new File([png(20, 10)], 'graph.png') },
  );
  assert.equal(attached.status, 200);
  const body = textarea(attached.text);
  assert.match(body, /^See:\n\n!\[graph\]\(http:\/\/acme\.[^)]+\/graph\.png\)\n$/);
  const posted = await client.post('/ask', {
    category: 'support',
    title: 'Why is this graph flat?',
    body,
    action: 'post',
  });
  assert.match(visible(posted.text), /Your question was posted/);
  assert.match(posted.text, /<img src="[^"]+\/graph\.png" alt="graph" width="20" height="10"/);
});

test('an HTML page named .png is refused with the reason; a PDF downloads as an attachment', async () => {
  const h = await hamlet();
  const client = await member(h, 'acme');
  await client.get(`/t/${TOPIC}`);
  const html = '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>';
  const refused = await client.postFiles(
    `/t/${TOPIC}/reply`,
    { body: 'Look at this', action: 'post' },
    { file: new File([html], 'photo.png', { type: 'image/png' }) },
  );
  assert.equal(refused.status, 400);
  assert.match(
    visible(refused.text),
    /The file was not attached: "photo\.png" is named as a PNG image, but its content is HTML or other markup: the file is refused\./,
  );
  assert.equal(textarea(refused.text), 'Look at this', 'the text stays, nothing was posted');
  assert.doesNotMatch(visible(refused.text), /Your reply was posted/);

  const pdf = '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';
  const attached = await client.postFiles(
    `/t/${TOPIC}/reply`,
    { body: 'The report', action: 'attach' },
    { file: new File([pdf], 'report.pdf') },
  );
  assert.match(
    textarea(attached.text),
    /\n\n\[report\.pdf\]\(http:\/\/acme\.[^)]+\/report\.pdf\)\n$/,
  );
  const served = await client.get(uploadPath(textarea(attached.text)));
  assert.equal(served.headers['content-type'], 'application/pdf');
  assert.equal(served.headers['content-disposition'], 'attachment; filename="report.pdf"');
  assert.equal(served.headers['content-security-policy'], "default-src 'none'; sandbox");
});

test('another community, the apex and a private community’s visitors get 404 for a file', async () => {
  const h = await hamlet();
  const system = systemActor('test');
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const skunkworks = (await h.store.communities.getBySlug('skunkworks'))!;
  const file = () => new File([png(5, 5)], 'dot.png');
  const here = uploadPath((await h.services.uploads.upload(system, acme, { file: file() })).url);
  assert.equal((await h.get('acme', here)).status, 200);
  assert.equal((await h.get('skunkworks', here)).status, 404, "another community's host");
  assert.equal((await h.get(null, here)).status, 404, 'the apex');

  const secret = await h.services.uploads.upload(system, skunkworks, { file: file() });
  const hidden = uploadPath(secret.url);
  const visitor = await h.get('skunkworks', hidden);
  assert.equal(visitor.status, 404, 'a visitor of a private community');
  assert.doesNotMatch(visitor.headers['content-type'] ?? '', /image/);
  const reader = await member(h, 'skunkworks');
  const read = await reader.get(hidden);
  assert.equal(read.status, 200, 'a member reads it');
  assert.equal(read.headers['cache-control'], 'private, max-age=31536000, immutable');
  assert.equal((await h.get('acme', hidden)).status, 404, 'not on a public neighbour either');
});

test("a private community's file opens to its agents' keys and a member's own user key, not to others'", async () => {
  const h = await hamlet();
  const system = systemActor('test');
  const skunkworks = (await h.store.communities.getBySlug('skunkworks'))!;
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const secret = await h.services.uploads.upload(system, skunkworks, {
    file: new File([png(6, 6)], 'plan.png'),
  });
  const path = uploadPath(secret.url);
  const as = (key: string, slug = 'skunkworks', where = path) =>
    h.get(slug, where, { headers: { authorization: `Bearer ${key}` } });
  const agent = await h.services.agents.create(system, skunkworks, { name: 'reader-bot' });
  const read = await as(agent.key);
  assert.equal(read.status, 200, "the community's agent reads it by its key");
  assert.equal(read.headers['content-type'], 'image/png');
  assert.equal(
    (await h.get(null, `/c/skunkworks${path}`, { headers: { 'x-api-key': agent.key } })).status,
    200,
    'in the path form, with X-API-Key too',
  );
  const email = `keyholder${++n}@example.org`;
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name: 'Key holder' });
  await h.services.accounts.addMember(system, skunkworks, { email, role: 'member' });
  const own = await h.services.accounts.mintUserKey(system, { email });
  assert.equal((await as(own.key)).status, 200, "a member's own user key");

  const outsider = await h.services.agents.create(system, acme, { name: 'neighbour-bot' });
  assert.equal((await as(outsider.key)).status, 404, "another community's agent");
  const stranger = `stranger${++n}@example.org`;
  await h.services.accounts.createUser(system, { email: stranger, password: PASSWORD, name: 'S' });
  const theirs = await h.services.accounts.mintUserKey(system, { email: stranger });
  assert.equal((await as(theirs.key)).status, 404, "a non-member's user key");
  assert.equal((await as('hmlt_live_not-a-key')).status, 404, 'a made-up key');
});

test('a file over the size limit is refused; the quota is per community; other bodies keep their limits', async () => {
  const h = await tight();
  const key = await h.agentKey();
  const send = (bytes: Uint8Array, name: string) =>
    h.get('acme', `/api/v1/uploads?filename=${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: Buffer.from(bytes) as unknown as string,
    });
  const text = (size: number) => new Uint8Array(size).fill(0x61);
  const over = await send(text(550_000), 'big.txt');
  assert.equal(over.status, 413, over.text);
  assert.match(over.json().detail, /"big\.txt" is 537\.1 KiB: a file may be at most 512 KiB\./);
  const far = await send(text(700_000), 'huge.txt');
  assert.equal(far.status, 413, 'past the upload bound, the body is not read');
  const fields = new FormData();
  fields.set('file', new File([text(530_000)], 'form.txt'));
  const multipart = new Request('http://x/', { method: 'POST', body: fields });
  const overInForm = await h.get('acme', '/api/v1/uploads', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': multipart.headers.get('content-type')!,
    },
    body: Buffer.from(await multipart.arrayBuffer()) as unknown as string,
  });
  assert.equal(overInForm.status, 413, 'in a multipart form too');
  assert.match(
    overInForm.json().detail,
    /"form\.txt" is 517\.6 KiB: a file may be at most 512 KiB\./,
  );

  const kept: string[] = [];
  for (const i of [1, 2]) {
    const ok = await send(text(500_000), `part${i}.txt`);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json().upload.content_type, 'text/plain; charset=utf-8');
    kept.push(ok.json().upload.id);
  }
  const full = await send(text(500_000), 'part3.txt');
  assert.equal(full.status, 409, full.text);
  assert.match(
    full.json().detail,
    /"acme" has no room for "part3\.txt" \(488\.3 KiB\): its files may take 1\.1 MiB together and 976\.6 KiB are taken/,
  );
  const skunkworks = (await h.store.communities.getBySlug('skunkworks'))!;
  const elsewhere = await h.services.uploads.upload(systemActor('test'), skunkworks, {
    file: new File([text(500_000)], 'room.txt'),
  });
  assert.equal(elsewhere.byteSize, 500_000, 'another community has its own quota');

  // Each call is audited once: the kept files by id, the one past the quota as refused (a file over
  // the size limit is refused at the door, before any call); a write
  // outside a call (the system's, here) has an entry of its own.
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const audited = (await h.store.identity.audit.list(acme.id, { limit: 50 })).items.filter(
    (e) => e.action === 'tool:upload_file',
  );
  assert.deepEqual(
    audited
      .filter((e) => e.outcome === 'ok')
      .map((e) => e.targets.upload)
      .sort(),
    [...kept].sort(),
  );
  assert.deepEqual(
    audited.filter((e) => e.outcome === 'error').map((e) => e.errorCode),
    ['conflict'],
  );
  const own = (await h.store.identity.audit.list(skunkworks.id, { limit: 50 })).items;
  assert.deepEqual(
    own.filter((e) => e.action === 'upload.create').map((e) => [e.targets.upload, e.outcome]),
    [[elsewhere.id, 'ok']],
  );

  // The upload bound is the upload route's alone: other REST bodies and web forms keep theirs.
  const topic = await h.get('acme', '/api/v1/topics', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      category: 'support',
      title: 'A long one here',
      body: 'x'.repeat(10_000),
    }),
  });
  assert.equal(topic.status, 413);
  const form = await h.get('acme', '/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `title=Long&body=${'y'.repeat(400_000)}`,
  });
  assert.equal(form.status, 413);
});
