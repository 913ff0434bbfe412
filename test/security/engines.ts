// Runs a security test once per storage engine: SQLite always, PostgreSQL when TEST_POSTGRES_URL is
// set (a fresh database per run; without it the PostgreSQL case is skipped with the reason, and fails
// under CI=true so CI can never silently test one engine only).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { freshPostgresDatabase } from '../store/pg-database.ts';

export type Engine = {
  name: 'sqlite' | 'postgres';
  env: Record<string, string>;
  drop(): Promise<void>;
};

/**
 * Declares `body` as a top-level test for each engine, named "<title> (<engine>)". `options.todo`
 * marks a behaviour someone is still building: reported, but not failing the run.
 */
export function eachEngine(
  title: string,
  body: (engine: Engine, t: TestContext) => Promise<void>,
  options: { todo?: string } = {},
): void {
  test(`${title} (sqlite)`, options, (t) =>
    body({ name: 'sqlite', env: {}, drop: async () => {} }, t),
  );
  test(`${title} (postgres)`, options, async (t) => {
    const setup = await freshPostgresDatabase('security');
    if (!setup.ok) {
      if (setup.fail) assert.fail(`CI=true but ${setup.reason}`);
      t.skip(setup.reason);
      return;
    }
    try {
      await body({ name: 'postgres', env: { DATABASE_URL: setup.url }, drop: setup.drop }, t);
    } finally {
      await setup.drop();
    }
  });
}
