// The store contract on a real PostgreSQL, in a database created for this run and dropped after.
// Without TEST_POSTGRES_URL it reports itself skipped, except under CI where that is a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/open.ts';
import { defineStoreContract } from './contract.ts';
import { freshPostgresDatabase } from './pg-database.ts';
import { defineRenderContract } from './render-contract.ts';
import { defineModerationContract } from './moderation-contract.ts';
import { defineWebContract } from './web-contract.ts';
import { defineReadingContract } from './reading-contract.ts';
import { defineModeratorActionsContract } from './moderator-actions-contract.ts';
import { defineDirectoryContract } from './directory-contract.ts';

const setup = await freshPostgresDatabase('store');
if (setup.ok) {
  defineStoreContract('postgres', { open: () => openStore(setup.url), cleanup: setup.drop });
  const render = await freshPostgresDatabase('render');
  if (render.ok)
    defineRenderContract('postgres', { open: () => openStore(render.url), cleanup: render.drop });
  else test('store contract: rendered HTML (postgres)', () => assert.fail(render.reason));
  const moderation = await freshPostgresDatabase('moderation');
  if (moderation.ok)
    defineModerationContract('postgres', {
      open: () => openStore(moderation.url),
      cleanup: moderation.drop,
    });
  else test('store contract: moderation (postgres)', () => assert.fail(moderation.reason));
  const actions = await freshPostgresDatabase('moderator_actions');
  if (actions.ok)
    defineModeratorActionsContract('postgres', {
      open: () => openStore(actions.url),
      cleanup: actions.drop,
    });
  else test('store contract: moderator actions (postgres)', () => assert.fail(actions.reason));
  const web = await freshPostgresDatabase('web');
  if (web.ok) defineWebContract('postgres', { open: () => openStore(web.url), cleanup: web.drop });
  else test('store contract: drafts and numbered pages (postgres)', () => assert.fail(web.reason));
  const reading = await freshPostgresDatabase('reading');
  if (reading.ok)
    defineReadingContract('postgres', {
      open: () => openStore(reading.url),
      cleanup: reading.drop,
    });
  else
    test('store contract: bookmarks and post revisions (postgres)', () =>
      assert.fail(reading.reason));
  const directory = await freshPostgresDatabase('directory');
  if (directory.ok)
    defineDirectoryContract('postgres', {
      open: () => openStore(directory.url),
      cleanup: directory.drop,
    });
  else
    test('store contract: the directory at scale (postgres)', () => assert.fail(directory.reason));
} else if (setup.fail) {
  test('store contract (postgres)', () => assert.fail(`CI=true but ${setup.reason}`));
} else {
  test('store contract (postgres)', { skip: setup.reason }, () => {});
}
