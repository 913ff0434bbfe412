// A query that is built and compiled once per database handle, then run with each call's values.
// Kysely's builder and compiler can cost more CPU than SQLite spends running a small read: the
// agent-key join takes 49 µs to build and compile, and about as long to run. So the statements
// that nearly every request sends are compiled at their first use. The builder is handed
// placeholders in place of the call's values, and the compiled parameters are filled in from
// them on each call. The statement's shape may depend on how many values there are (a spread list
// for `in (…)`: each count is compiled once), never on what they are: a clause added for some
// values only needs a compiled query of its own, or the builder.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/** Where one of the call's values goes: its index among them. */
class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * `build(db, ...values)` compiled once for each database handle it runs on and each number of
 * values. A transaction is a handle of its own: a query run inside one is compiled for it (as
 * without this helper). The answer is the rows.
 */
export function compiledOnce<D, V extends unknown[], R>(
  build: (db: Kysely<D>, ...values: V) => Compilable<R>,
): (db: Kysely<D>, ...values: V) => Promise<R[]> {
  const byHandle = new WeakMap<Kysely<D>, Map<number, CompiledQuery<R>>>();
  return async (db, ...values) => {
    let byCount = byHandle.get(db);
    if (!byCount) byHandle.set(db, (byCount = new Map()));
    let compiled = byCount.get(values.length);
    if (!compiled) {
      const placeholders = values.map((_, i) => new Placeholder(i)) as V;
      compiled = build(db, ...placeholders).compile();
      byCount.set(values.length, compiled);
    }
    const parameters = compiled.parameters.map((p) =>
      p instanceof Placeholder ? values[p.index] : p,
    );
    const { rows } = await db.executeQuery<R>({ ...compiled, parameters });
    return rows;
  };
}
