// A subject's words for community matching: lower-case letters and digits, each once, no English
// stop words or one-letter words, at most MAX_SUBJECT_WORDS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SUBJECT_WORDS, subjectWords } from './subject-words.ts';

test('words of a subject: lower case, once each, without stop words and one-letter words', () => {
  assert.deepEqual(
    subjectWords('How do I verify the Webhook signature? Webhook, HMAC-SHA256 (v2) x'),
    ['verify', 'webhook', 'signature', 'hmac', 'sha256', 'v2'],
  );
  assert.deepEqual(
    subjectWords('Ｃａｆé  naïve'),
    ['café', 'naïve'],
    'NFKC: full-width letters read as letters',
  );
  assert.deepEqual(subjectWords('the of and ?!'), []);
  const many = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
  assert.equal(subjectWords(many).length, MAX_SUBJECT_WORDS);
});
