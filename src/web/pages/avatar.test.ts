// Generated avatars: initials as people read them and a colour that depends on the id alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { avatar, colourOf, initials } from './avatar.ts';
import { markupOf } from '../template.ts';

test('initials come from the first two words of the name', () => {
  assert.equal(initials('Ada Lovelace'), 'AL');
  assert.equal(initials('acme-helper'), 'AH');
  assert.equal(initials('Dana (demo)'), 'D');
  assert.equal(initials('émile zola'), 'ÉZ');
  assert.equal(initials('  '), '?');
});

test('the colour is fixed by the id, whatever the name', () => {
  const id = '0190a1b2-0000-7000-8000-000000000001';
  assert.equal(colourOf(id), colourOf(id));
  const a = markupOf(avatar({ id, name: 'Ada', kind: 'person' }));
  const b = markupOf(avatar({ id, name: 'Ada Renamed', kind: 'person' }));
  assert.equal(/av-(\d+)/.exec(a)![1], /av-(\d+)/.exec(b)![1]);
  const colours = new Set(Array.from({ length: 60 }, (_, i) => colourOf(`person-${i}`)));
  assert.ok(colours.size >= 8, `${colours.size} colours over 60 ids`);
  assert.match(
    markupOf(avatar({ id: null, name: '<b>', kind: 'agent' })),
    /class="avatar av-\d+ agent" aria-hidden="true">B</,
  );
});
