// The OAuth suite on an embedded SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/open.ts';
import { defineOAuthContract } from './contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-oauth-'));
defineOAuthContract('sqlite', {
  open: () => openDatabase(`sqlite:${join(dir, 'hamlet.db')}`),
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});
