// A Kysely handle whose schema no TypeScript type describes: the migrations (each runs against the
// schema as the migrations before it left it) and the helpers that work on a connection whatever
// its tables. Everywhere else a handle carries the Database type of ./schema.ts.
import type { Kysely, SelectQueryBuilder } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is whatever the migrations made
export type AnySchemaDb = Kysely<any>;

/** A select over any table: the caller's builder keeps its own database types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables are the caller's
export type AnyTableSelect<R> = SelectQueryBuilder<any, any, R>;
