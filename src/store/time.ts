// Timestamps cross the store boundary as ISO-8601 UTC strings with millisecond precision
// ("2002-08-22T11:36:23.000Z"). SQLite keeps that text (which sorts chronologically); PostgreSQL
// keeps timestamptz and its driver hands back Date objects. Both are normalized here on read.

export function nowIso(): string {
  return new Date().toISOString();
}

/** Normalizes a driver value (Date or date string) to the canonical ISO form. */
export function toIso(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`Not a timestamp: ${String(value)}`);
  return date.toISOString();
}

export function toIsoOrNull(value: string | Date | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}
