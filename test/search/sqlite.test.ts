// Search on an embedded SQLite file (FTS5).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/open.ts';
import { defineSearchContract } from './contract.ts';
import { defineEmbeddingsContract } from './embeddings-contract.ts';
import { defineModerationSearchContract } from './moderation-contract.ts';
import { defineScopeContract } from './scope-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-search-'));
const url = `sqlite:${join(dir, 'search.db')}`;
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
defineSearchContract('sqlite', { url, open: () => openDatabase(url) });

const embeddingsUrl = `sqlite:${join(dir, 'embeddings.db')}`;
defineEmbeddingsContract('sqlite', { url: embeddingsUrl, open: () => openDatabase(embeddingsUrl) });

const moderationUrl = `sqlite:${join(dir, 'moderation.db')}`;
defineModerationSearchContract('sqlite', {
  url: moderationUrl,
  open: () => openDatabase(moderationUrl),
});

const scopeUrl = `sqlite:${join(dir, 'scope.db')}`;
defineScopeContract('sqlite', { url: scopeUrl, open: () => openDatabase(scopeUrl) });
