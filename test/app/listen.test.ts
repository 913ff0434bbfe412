// A port that is already taken: the start fails with the system's code (EADDRINUSE), a message that
// says what to do, and leaves nothing open (on
// PostgreSQL, no pooled connection), so the same database can be started again on another port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../helpers/wait.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { startTestHamlet } from './helpers.ts';

/** Whether `now` holds nothing that `before` did not (each kind of handle counted). */
function noneAdded(now: string[], before: string[]): boolean {
  const left = [...before];
  return now.every((kind) => left.includes(kind) && left.splice(left.indexOf(kind), 1).length > 0);
}

async function takenPortThenAnother(databaseUrl: string): Promise<void> {
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  const taken = (squatter.address() as { port: number }).port;
  const env = { DATABASE_URL: databaseUrl };
  try {
    const before = process.getActiveResourcesInfo();
    await assert.rejects(startTestHamlet({ ...env, PORT: String(taken) }, { keepDatabase: true }), {
      code: 'EADDRINUSE',
      message: `127.0.0.1:${taken} is already in use (another Hamlet, or another program, listens there): stop it, or start on another port, e.g. PORT=${taken + 1} npm start`,
    });
    await waitFor(() => noneAdded(process.getActiveResourcesInfo(), before), {
      message: () =>
        `the failed start to leave nothing open that was not open before it ` +
        `(${before.join(', ')}); open now: ${process.getActiveResourcesInfo().join(', ')}`,
    });
    const hamlet = await startTestHamlet(env, { keepDatabase: true });
    try {
      assert.notEqual(hamlet.port, taken);
      assert.equal((await fetch(`${hamlet.url}/readyz`)).status, 200);
    } finally {
      await hamlet.stop();
    }
  } finally {
    squatter.close();
  }
}

test('SQLite: a taken port fails the start with EADDRINUSE; it starts again elsewhere', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-listen-'));
  try {
    await takenPortThenAnother(`sqlite:${join(dir, 'hamlet.db')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const setup = await freshPostgresDatabase('listen');
const pgTitle = 'PostgreSQL: a taken port fails the start and leaves no connection open';
if (!setup.ok) {
  if (setup.fail) test(pgTitle, () => assert.fail(`CI=true but ${setup.reason}`));
  else test(pgTitle, { skip: setup.reason }, () => {});
} else {
  test(pgTitle, async () => {
    try {
      await takenPortThenAnother(setup.url);
    } finally {
      await setup.drop();
    }
  });
}
