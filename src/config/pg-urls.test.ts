// PostgreSQL URLs with several hosts become one URL per host, alike but for the host; a list of
// standby URLs may mix single and multi-host URLs; logs name hosts without credentials.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostOf, hostUrls, urlList } from './pg-urls.ts';
import { loadConfig } from './config.ts';

test('a URL listing hosts is one URL per host, user, database and parameters kept', () => {
  assert.deepEqual(hostUrls('postgres://u:p%40ss@a:5432,b:5433/db?sslmode=require'), [
    'postgres://u:p%40ss@a:5432/db?sslmode=require',
    'postgres://u:p%40ss@b:5433/db?sslmode=require',
  ]);
  assert.deepEqual(hostUrls('postgresql://[::1]:5432,10.0.0.2/hamlet'), [
    'postgresql://[::1]:5432/hamlet',
    'postgresql://10.0.0.2/hamlet',
  ]);
  assert.deepEqual(hostUrls('postgres://u@only:5432/db'), ['postgres://u@only:5432/db']);
  assert.throws(() => hostUrls('postgres://u@a:5432,,b/db'), /host:port separated by commas/);
  assert.throws(() => hostUrls('mysql://a/db'), /postgres:\/\//);
});

test('a list of standby URLs: separated by commas, each may list hosts', () => {
  assert.deepEqual(urlList('postgres://u@r1:5432/db, postgres://u@r2:5432,r3:5432/db'), [
    'postgres://u@r1:5432/db',
    'postgres://u@r2:5432/db',
    'postgres://u@r3:5432/db',
  ]);
  assert.equal(hostOf('postgres://user:secret@r1:5432/db'), 'r1:5432');
});

test('HAMLET_DATABASE_REPLICA_URL: standbys of a PostgreSQL primary, with a lag bound', () => {
  const config = loadConfig({
    DATABASE_URL: 'postgres://u@a:5432,b:5432/db',
    HAMLET_DATABASE_REPLICA_URL: 'postgres://u@r1/db,postgres://u@r2/db',
  });
  assert.deepEqual(config.postgres.replicaUrls, ['postgres://u@r1/db', 'postgres://u@r2/db']);
  assert.equal(config.postgres.replicaMaxLagMs, 3_000);
  assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://u@a/db' }).postgres.replicaUrls, []);
  assert.throws(
    () =>
      loadConfig({
        DATABASE_URL: 'sqlite::memory:',
        HAMLET_DATABASE_REPLICA_URL: 'postgres://r/db',
      }),
    /HAMLET_DATABASE_REPLICA_URL needs DATABASE_URL to be a postgres:\/\/ URL/,
  );
  assert.throws(
    () => loadConfig({ DATABASE_URL: 'postgres://a/db', HAMLET_DATABASE_REPLICA_URL: 'r1:5432' }),
    /HAMLET_DATABASE_REPLICA_URL must be one or more postgres:\/\/ URLs/,
  );
  assert.throws(
    () => loadConfig({ DATABASE_URL: 'postgres://a/db', HAMLET_DATABASE_REPLICA_MAX_LAG_MS: '10' }),
    /HAMLET_DATABASE_REPLICA_MAX_LAG_MS/,
  );
});
