// The mail outbox suite on an embedded SQLite file (two connections to it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/open.ts';
import { defineOutboxContract } from './outbox-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-mail-'));
defineOutboxContract('sqlite', {
  open: () => openDatabase(`sqlite:${join(dir, 'hamlet.db')}`),
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});
