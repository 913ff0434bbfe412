// The read-only pages behind the URLs agents hand out: a topic (with its accepted answer and the
// agent label), a community home; private communities and unknown topics answer 404.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { raw } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

let h: TestHamlet;
before(async () => {
  h = await startTestHamlet({}, { demo: true });
});
after(() => h.stop());

test('a topic URL from a search result opens the topic, with its accepted answer marked', async () => {
  const res = await raw(h.hostUrl('acme.localhost', '/t/verifying-the-hamlet-signature-header'));
  assert.equal(res.status, 200);
  assert.match(res.headers['content-type']!, /text\/html/);
  assert.match(res.text, /<h1>Verifying the hamlet-signature header<\/h1>/);
  assert.match(
    res.text,
    /<article id="post-[0-9a-f-]{36}" class="solution" aria-label="Accepted answer by acme-helper">/,
  );
  assert.match(res.text, /posted by agent acme-helper on behalf of community acme/);
  assert.match(res.text, /<code>v1<\/code>/, 'Markdown is rendered');
  assert.doesNotMatch(res.text, /<script/i);
});

test('the community home lists categories, latest and unanswered topics', async () => {
  const res = await raw(h.hostUrl('acme.localhost', '/'));
  assert.equal(res.status, 200);
  assert.match(res.text, /<h1>Acme<\/h1>/);
  assert.match(res.text, /<h2>Latest<\/h2>/);
  assert.match(res.text, /href="\/t\/verifying-the-hamlet-signature-header"/);
});

test('private communities, unknown topics and unknown hosts are 404 pages', async () => {
  for (const [host, path] of [
    ['skunkworks.localhost', '/'],
    ['skunkworks.localhost', '/t/project-falcon-launch-checklist'],
    ['acme.localhost', '/t/no-such-topic'],
    ['nope.localhost', '/'],
  ]) {
    const res = await raw(h.hostUrl(host!, path!));
    assert.equal(res.status, 404, `${host}${path}`);
    assert.match(res.text, /<h1>Not found<\/h1>/);
    assert.doesNotMatch(res.text, /Falcon/);
  }
});
