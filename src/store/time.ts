// Timestamps cross the store boundary as ISO-8601 UTC strings with millisecond precision
// ("2002-08-22T11:36:23.000Z"). SQLite keeps that text (which sorts chronologically); PostgreSQL
// keeps timestamptz and its driver hands back Date objects. Both are normalized here on read.

export function nowIso(): string {
  return new Date().toISOString();
}

/** The canonical form itself, as SQLite hands back what was written (a year of four digits). */
const CANONICAL = /^\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\d\.\d{3}Z$/;

/**
 * Normalizes a driver value (Date or date string) to the canonical ISO form. A string already in
 * it is returned as it is: parsing and printing it again cost more than the rest of a row's
 * mapping.
 */
export function toIso(value: string | Date): string {
  if (typeof value === 'string' && CANONICAL.test(value)) return value;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`Not a timestamp: ${String(value)}`);
  return date.toISOString();
}

export function toIsoOrNull(value: string | Date | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}
