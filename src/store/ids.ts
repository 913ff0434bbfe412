// Record ids: random UUIDs, and the check that a string is one (a malformed id matches no row).
import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newId(): string {
  return randomUUID();
}

/**
 * Lookups by id check the shape first: PostgreSQL rejects a malformed uuid with an error, SQLite
 * just finds nothing; checking up front makes both engines answer "not found" alike.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
