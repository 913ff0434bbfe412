// The word-level diff: what a reader of a history page is shown changed between two versions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changed, diffHtml, tokens, wordDiff } from './diff.ts';
import { markupOf } from './template.ts';

/** The after-text rebuilt from the parts, and the before-text (spacing as in the after-text). */
const sides = (parts: ReturnType<typeof wordDiff>) => ({
  after: parts
    .filter((p) => p.kind !== 'removed')
    .map((p) => p.text)
    .join(''),
  before: parts
    .filter((p) => p.kind !== 'added')
    .map((p) => p.text)
    .join(''),
});

test('tokens keep every character: leading space, each word with the space after it', () => {
  assert.deepEqual(tokens('  one two\n\nthree '), ['  ', 'one ', 'two\n\n', 'three ']);
  assert.deepEqual(tokens(''), []);
});

test('a changed word in the middle is removed and added, the rest the same', () => {
  const parts = wordDiff('the quick brown fox jumps', 'the quick red fox jumps');
  assert.deepEqual(parts, [
    { kind: 'same', text: 'the quick ' },
    { kind: 'removed', text: 'brown ' },
    { kind: 'added', text: 'red ' },
    { kind: 'same', text: 'fox jumps' },
  ]);
  assert.equal(changed(parts), true);
});

test('insertions and deletions at both ends, and several apart, by the longest common run', () => {
  const before = 'alpha beta gamma delta epsilon';
  const after = 'zero alpha gamma delta new epsilon end';
  const parts = wordDiff(before, after);
  assert.equal(sides(parts).after, after);
  assert.equal(sides(parts).before.replace(/\s+/g, ' ').trim(), before);
  assert.deepEqual(
    parts.filter((p) => p.kind !== 'same').map((p) => [p.kind, p.text.trim()]),
    [
      ['added', 'zero'],
      ['removed', 'beta'],
      ['added', 'new'],
      ['added', 'end'],
    ],
  );
});

test('only spacing changed: nothing changed; identical and empty texts', () => {
  assert.equal(changed(wordDiff('a  b\nc', 'a b c')), false);
  assert.deepEqual(wordDiff('same text', 'same text'), [{ kind: 'same', text: 'same text' }]);
  assert.deepEqual(wordDiff('', 'new words'), [{ kind: 'added', text: 'new words' }]);
  assert.deepEqual(wordDiff('old words', ''), [{ kind: 'removed', text: 'old words' }]);
});

test('two long texts rewritten throughout fall back to removed, then added', () => {
  const a = Array.from({ length: 2500 }, (_, i) => `a${i}`).join(' ');
  const b = Array.from({ length: 2500 }, (_, i) => `b${i}`).join(' ');
  const parts = wordDiff(a, b);
  assert.deepEqual(
    parts.map((p) => p.kind),
    ['removed', 'added'],
  );
  assert.equal(sides(parts).after, b);
});

test('as HTML: escaped, <del> and <ins> each said in words, marks ending at their last word', () => {
  const html = markupOf(diffHtml(wordDiff('use <b> here', 'use <i> here')));
  assert.equal(
    html,
    '<div class="diff">use <del><span class="visually-hidden">[removed: </span>&lt;b&gt;<span class="visually-hidden">]</span></del> <ins><span class="visually-hidden">[added: </span>&lt;i&gt;<span class="visually-hidden">]</span></ins> here</div>',
  );
  // A removal glued to the addition after it (the last word changed) keeps them apart.
  assert.match(
    markupOf(diffHtml(wordDiff('next week.', 'next month.'), 'span')),
    /^<span class="diff">next <del>.*week\..*<\/del> <ins>.*month\..*<\/ins><\/span>$/,
  );
});
