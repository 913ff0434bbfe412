// Retention inside `serve`, on both engines: idempotency records older than
// HAMLET_IDEMPOTENCY_RETENTION_HOURS, expired or revoked web sessions, expired OAuth codes and (only
// with HAMLET_AUDIT_RETENTION_DAYS) old audit entries are deleted by the server's sweep; fresh rows
// of each stay. A batch deletes no more than its limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/store/open.ts';
import { startTestHamlet } from '../app/helpers.ts';
import { postgresFromTemplate, sqliteFromTemplate } from '../helpers/template.ts';
import { waitFor } from '../helpers/wait.ts';

const DAY = 86_400_000;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

type Counts = Record<'idempotency' | 'sessions' | 'codes' | 'audit', string[]>;

async function retained(url: string): Promise<void> {
  const { store, db } = await openDatabase(url, { migrate: false, poolSize: 2 });
  try {
    const community = await store.communities.create({
      slug: `ret-${randomUUID().slice(0, 8)}`,
      name: 'Retention',
      visibility: 'public',
    });
    const person = await store.people.create({ displayName: 'Ret' });
    const idem = store.community(community.id).access.idempotency;
    for (const key of ['old-1', 'old-2', 'fresh'])
      await idem.insert({ actor: 'a', key, requestHash: 'h', result: { big: 'x'.repeat(100) } });
    await sql`update idempotency_records set created_at = ${iso(25 * 3_600_000)} where idempotency_key like 'old-%'`.execute(
      db,
    );
    const credentials = store.identity.credentials;
    await credentials.createSession({
      personId: person.id,
      tokenHash: 'expired',
      expiresAt: iso(1000),
    });
    await credentials.createSession({
      personId: person.id,
      tokenHash: 'revoked',
      expiresAt: iso(-DAY),
    });
    await credentials.revokeSession('revoked');
    await credentials.createSession({
      personId: person.id,
      tokenHash: 'live',
      expiresAt: iso(-DAY),
    });
    const now = iso(0);
    const grant = await store.oauth.createGrant({
      id: randomUUID(),
      communityId: community.id,
      personId: person.id,
      clientId: 'client',
      clientName: 'Client',
      scopes: ['read'],
      createdAt: now,
      updatedAt: now,
    });
    for (const [hash, expiresAt] of [
      ['code-expired', iso(1000)],
      ['code-live', iso(-60_000)],
    ] as const)
      await store.oauth.addCode({
        codeHash: hash,
        grantId: grant.id,
        clientId: 'client',
        redirectUri: 'https://app.example/cb',
        codeChallenge: 'c',
        scopes: ['read'],
        resource: 'r',
        createdAt: now,
        expiresAt,
      });
    const audit = (action: string, occurredAt: string) =>
      store.identity.audit.record({
        communityId: community.id,
        actorKind: 'system',
        actorId: null,
        actorName: 'test',
        keyPrefix: null,
        action,
        targets: {},
        outcome: 'ok',
        errorCode: null,
        ip: null,
        occurredAt,
      });
    await audit('test.old', iso(40 * DAY));
    await audit('test.fresh', iso(DAY));

    // A batch is bounded: one of the two old idempotency records.
    assert.equal(await store.retention.deleteBatch('idempotency', iso(24 * 3_600_000), 1), 1);

    const counts = async (): Promise<Counts> => ({
      idempotency: (
        await sql<{
          k: string;
        }>`select idempotency_key as k from idempotency_records where community_id = ${community.id} order by k`.execute(
          db,
        )
      ).rows.map((r) => r.k),
      sessions: (
        await sql<{
          k: string;
        }>`select token_hash as k from web_sessions where person_id = ${person.id} order by k`.execute(
          db,
        )
      ).rows.map((r) => r.k),
      codes: (
        await sql<{
          k: string;
        }>`select code_hash as k from oauth_codes where grant_id = ${grant.id} order by k`.execute(
          db,
        )
      ).rows.map((r) => r.k),
      audit: (
        await sql<{
          k: string;
        }>`select action as k from audit_log where community_id = ${community.id} order by k`.execute(
          db,
        )
      ).rows.map((r) => r.k),
    });
    const h = await startTestHamlet(
      { DATABASE_URL: url, HAMLET_AUDIT_RETENTION_DAYS: '30' },
      { keepDatabase: true },
    );
    try {
      const expected: Counts = {
        idempotency: ['fresh'],
        sessions: ['live'],
        codes: ['code-live'],
        audit: ['test.fresh'],
      };
      let last: Counts | undefined;
      await waitFor(
        async () => JSON.stringify((last = await counts())) === JSON.stringify(expected),
        {
          timeoutMs: 20_000,
          message: () =>
            `the sweep to leave ${JSON.stringify(expected)}, not ${JSON.stringify(last)}`,
        },
      );
    } finally {
      await h.stop();
    }
  } finally {
    await store.close();
  }
}

test('retention sweeps old rows and keeps fresh ones (sqlite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-retention-'));
  try {
    const file = join(dir, 'hamlet.db');
    await sqliteFromTemplate(file, 'migrated');
    await retained(`sqlite:${file}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const pg = await postgresFromTemplate('retention', 'migrated');
test(
  'retention sweeps old rows and keeps fresh ones (postgres)',
  { skip: !pg.ok && !pg.fail && pg.reason },
  async () => {
    if (!pg.ok) return assert.fail(pg.reason);
    try {
      await retained(pg.url);
    } finally {
      await pg.drop();
    }
  },
);
