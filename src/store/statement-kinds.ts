// What a SQL statement does, told from its text, for routing statements between a PostgreSQL primary
// and its standbys (./pg-routing.ts). Every doubt answers "not a plain read": such a statement goes
// to the primary, which is always right, only less spread out.

/** Starts as a query (a select, or a with whose parts might still write: checked below). */
const QUERY = /^\s*(\(\s*)*(select|with|values|table)\b/i;

/**
 * Anything that writes, locks, takes a sequence value, notifies, needs the primary's WAL or session
 * state, or creates a table (`select … into`), wherever it appears in the text.
 */
const NOT_PLAIN =
  /\b(insert|update|delete|merge|truncate|create|drop|alter|grant|revoke|lock|into|nextval|setval|pg_notify|notify|listen|unlisten|pg_current_wal\w*|txid_current\w*|pg_current_xact_id\w*|pg_advisory\w*|pg_try_advisory\w*|pg_terminate_backend|pg_cancel_backend|set_config|currval|lastval)\b|\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i;

/** Whether the statement only reads: it may run on a standby. */
export function isPlainRead(sql: string): boolean {
  return QUERY.test(sql) && !NOT_PLAIN.test(sql);
}

/**
 * A setting for the rest of the transaction only (`set local …`, `select set_config(…, true)`): a
 * transaction opening with such settings and then reading is a read that tunes the planner.
 */
export function isLocalSetting(sql: string): boolean {
  return (
    /^\s*set\s+local\s+[a-z_.]+\s*(=|to)\s*[^;]+;?\s*$/i.test(sql) ||
    /^\s*select\s+set_config\s*\(\s*'[a-z_.]+'\s*,\s*'[^']*'\s*,\s*true\s*\)\s*;?\s*$/i.test(sql)
  );
}

const WRITTEN =
  /\b(?:insert\s+into|update|delete\s+from|merge\s+into|truncate(?:\s+table)?)\s+(?:only\s+)?(?:"?[a-z_][a-z0-9_]*"?\s*\.\s*)?"?([a-z_][a-z0-9_]*)"?/gi;

/** The tables a statement writes, lower case; ['*'] when it may write but names none clearly. */
export function tablesWritten(sql: string): string[] {
  const tables = [...sql.matchAll(WRITTEN)].map((m) => m[1]!.toLowerCase());
  return tables.length ? [...new Set(tables)] : ['*'];
}

/** Whether a statement's text names `table` (as a whole word, quoted or not). */
export function mentions(sql: string, table: string): boolean {
  if (table === '*') return true;
  const at = sql.toLowerCase().indexOf(table);
  if (at < 0) return false;
  return new RegExp(`(^|[^a-z0-9_])${table}($|[^a-z0-9_])`, 'i').test(sql);
}
