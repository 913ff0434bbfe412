// Errors the store raises for the domain to translate (the domain owns the user-facing wording).

/** A uniqueness rule was violated (slug taken, e-mail taken, …). */
export class UniqueViolation extends Error {
  constructor(
    readonly what: string,
    options?: { cause?: unknown },
  ) {
    super(`${what} already exists`, options);
    this.name = 'UniqueViolation';
  }
}

/** A row the operation depends on is not in this community (or does not exist at all). */
export class MissingRow extends Error {
  constructor(readonly what: string) {
    super(`${what} not found`);
    this.name = 'MissingRow';
  }
}

/** SQLite (SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY) and PostgreSQL (23505) unique violations. */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** SQLite (SQLITE_CONSTRAINT_FOREIGNKEY) and PostgreSQL (23503) foreign key violations. */
export function isForeignKeyViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Runs a write and turns a unique violation into UniqueViolation(what). */
export async function uniquely<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new UniqueViolation(what, { cause: err });
    throw err;
  }
}

/**
 * A query parameter carried text that no engine stores alike: the NUL character (U+0000), which
 * PostgreSQL refuses in text while SQLite keeps it. Raised before the query is sent, on both engines.
 */
export class InvalidText extends Error {
  constructor() {
    super('text must not contain the NUL character (U+0000)');
    this.name = 'InvalidText';
  }
}
