// Whether a database's schema is the one this version of Hamlet was written for, and what to run
// when it is not. Only `hamlet serve` (unless --no-migrate) and `hamlet migrate` change the schema;
// every other command stops with this message, so that running a newer checkout's CLI against
// production never upgrades it behind the operator's back (an older version then refuses to start).

/** The migrations a database holds, against the ones this version knows (names in order). */
export type SchemaState = {
  applied: string[];
  /** Known here and not applied: the database is behind this version. */
  pending: string[];
  /** Applied and not known here: a newer version migrated the database. */
  unknown: string[];
};

export function isCurrent(state: SchemaState): boolean {
  return state.pending.length === 0 && state.unknown.length === 0;
}

/** What is wrong with the schema and the command that fixes it, or undefined when it is current. */
export function schemaProblem(state: SchemaState): string | undefined {
  if (state.unknown.length) {
    const lastKnown = state.applied.at(-1);
    return (
      `The database was migrated by a newer version of Hamlet: it holds migration(s) this version ` +
      `does not know (${state.unknown.join(', ')}). Use that newer version, or roll the schema back ` +
      `with the newer version's \`hamlet migrate --to ${lastKnown ?? '<migration>'}\` first.`
    );
  }
  if (!state.pending.length) return undefined;
  if (!state.applied.length)
    return (
      'The database DATABASE_URL names has no Hamlet schema yet: run `hamlet migrate` to create ' +
      'it (`hamlet serve` does too when it starts).'
    );
  return (
    `The database schema is older than this version of Hamlet (${state.pending.length} ` +
    `migration(s) pending: ${state.pending.join(', ')}). Run \`hamlet migrate\` to upgrade it ` +
    '(`hamlet serve` does too when it starts, unless --no-migrate).'
  );
}

/** Thrown where a current schema is required and the database is at another version. */
export class SchemaMismatchError extends Error {
  constructor(readonly state: SchemaState) {
    super(schemaProblem(state) ?? 'The database schema is current.');
    this.name = 'SchemaMismatchError';
  }
}
