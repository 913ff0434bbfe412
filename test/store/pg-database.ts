// A fresh PostgreSQL database per test file, so concurrent runs never see each other's rows.
// TEST_POSTGRES_URL points at a server where we may CREATE DATABASE (scripts/with-postgres.sh).
import pg from 'pg';
import { randomBytes } from 'node:crypto';

export type PgSetup =
  | { ok: true; url: string; drop: () => Promise<void> }
  | { ok: false; reason: string; fail: boolean };

export async function freshPostgresDatabase(label: string): Promise<PgSetup> {
  const base = process.env.TEST_POSTGRES_URL;
  if (!base) {
    const reason =
      'TEST_POSTGRES_URL is not set (run under scripts/with-postgres.sh to test PostgreSQL)';
    return { ok: false, reason, fail: process.env.CI === 'true' };
  }
  const name = `hamlet_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    ok: true,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
