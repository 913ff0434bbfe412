// How pages say when something happened, and what the head tells others about a page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainExcerpt, relativeTime, when } from './html.ts';
import { markupOf } from './template.ts';

const now = Date.parse('2026-12-02T12:00:00.000Z');

test('times read as a person says them, then as a date; the exact time is on hover', () => {
  const ago = (ms: number) => relativeTime(new Date(now - ms).toISOString(), now);
  assert.equal(ago(20_000), 'just now');
  assert.equal(ago(5 * 60_000), '5 min ago');
  assert.equal(ago(3 * 3_600_000), '3 h ago');
  assert.equal(ago(26 * 3_600_000), 'yesterday');
  assert.equal(ago(12 * 86_400_000), '12 days ago');
  assert.equal(relativeTime('2025-03-04T10:00:00.000Z', now), 'Mar 4, 2025');
  assert.equal(
    markupOf(when('2026-12-02T11:55:00.000Z', now)),
    '<time datetime="2026-12-02T11:55:00.000Z" title="2026-12-02 11:55 UTC">5 min ago</time>',
  );
});

test('a description is the plain text of the Markdown, cut at a word', () => {
  assert.equal(
    plainExcerpt(
      '# Title\n\nUse **`sqlite3 .backup`**, see [the docs](https://x.test).\n\n```\ncode\n```',
    ),
    'Title Use sqlite3 .backup, see the docs.',
  );
  const long = plainExcerpt('word '.repeat(100), 30);
  assert.ok(long.length <= 30 && long.endsWith('…'), long);
  assert.doesNotMatch(long, /wor…$/, 'cut at a word');
});
