// Child process for the crash test: imports into DATABASE_URL, printing "progress <done> <total>"
// after each committed batch and pausing briefly so the parent can SIGKILL it mid-way.
//   node --import tsx test/import/resume-child.ts <community> <batchSize> <path>...
import { loadConfig } from '../../src/config/config.ts';
import { openStore } from '../../src/store/open.ts';
import { importMail } from '../../src/import/mail/importer.ts';

const [slug, batch, ...paths] = process.argv.slice(2);
const config = loadConfig();
const store = await openStore(config.databaseUrl);
const report = await importMail(
  store,
  { config: config },
  {
    communitySlug: slug!,
    paths,
    batchSize: Number(batch),
    onProgress: (p) => {
      if (p.phase !== 'importing' || p.done === 0) return;
      process.stdout.write(`progress ${p.done} ${p.total}\n`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100); // widen the window for the kill
    },
  },
);
await store.close();
process.stdout.write(`done ${JSON.stringify(report)}\n`);
