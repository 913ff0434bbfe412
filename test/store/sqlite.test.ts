// The store contract on an embedded SQLite file (WAL, foreign keys on), the default engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.ts';
import { defineStoreContract } from './contract.ts';
import { defineRenderContract } from './render-contract.ts';
import { defineModerationContract } from './moderation-contract.ts';
import { defineWebContract } from './web-contract.ts';
import { defineReadingContract } from './reading-contract.ts';
import { defineModeratorActionsContract } from './moderator-actions-contract.ts';
import { defineDirectoryContract } from './directory-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-store-'));
defineStoreContract('sqlite', {
  open: () => openStore(`sqlite:${join(dir, 'sub', 'hamlet.db')}`),
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});
const renderDir = mkdtempSync(join(tmpdir(), 'hamlet-store-render-'));
defineRenderContract('sqlite', {
  open: () => openStore(`sqlite:${join(renderDir, 'hamlet.db')}`),
  cleanup: async () => rmSync(renderDir, { recursive: true, force: true }),
});
const moderationDir = mkdtempSync(join(tmpdir(), 'hamlet-store-moderation-'));
defineModerationContract('sqlite', {
  open: () => openStore(`sqlite:${join(moderationDir, 'hamlet.db')}`),
  cleanup: async () => rmSync(moderationDir, { recursive: true, force: true }),
});
const webDir = mkdtempSync(join(tmpdir(), 'hamlet-store-web-'));
defineWebContract('sqlite', {
  open: () => openStore(`sqlite:${join(webDir, 'hamlet.db')}`),
  cleanup: async () => rmSync(webDir, { recursive: true, force: true }),
});
const actionsDir = mkdtempSync(join(tmpdir(), 'hamlet-store-moderator-actions-'));
defineModeratorActionsContract('sqlite', {
  open: () => openStore(`sqlite:${join(actionsDir, 'hamlet.db')}`),
  cleanup: async () => rmSync(actionsDir, { recursive: true, force: true }),
});
const readingDir = mkdtempSync(join(tmpdir(), 'hamlet-store-reading-'));
defineReadingContract('sqlite', {
  open: () => openStore(`sqlite:${join(readingDir, 'hamlet.db')}`),
  cleanup: async () => rmSync(readingDir, { recursive: true, force: true }),
});
const directoryDir = mkdtempSync(join(tmpdir(), 'hamlet-store-directory-'));
defineDirectoryContract('sqlite', {
  open: () => openStore(`sqlite:${join(directoryDir, 'hamlet.db')}`),
  cleanup: async () => rmSync(directoryDir, { recursive: true, force: true }),
});
