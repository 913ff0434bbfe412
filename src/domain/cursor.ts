// Opaque pagination cursors: base64url of a small JSON tuple [listing, sort key, id]. The listing
// tag keeps a cursor from one listing (say topics sorted by "top") from being replayed on another,
// and each listing states the types of its sort key and id: a cursor is a client-held string, so a
// forged one must be refused here with invalid_argument before its values reach a typed column
// (PostgreSQL would reject a malformed timestamp, integer or uuid with an error; SQLite would not).
import type { Keyset } from '../store/types.ts';
import { isUuid } from '../store/ids.ts';
import { DomainError } from './errors.ts';

/**
 * What a listing's keyset holds. Keys: `timestamp` (the store's ISO-8601 UTC form), `integer` (a
 * position or count, 0 … 2^31-1), `number` (a finite score), `text` (a slug or name, 1–200
 * characters). Ids: `uuid`, or a constant for listings paged by position (an offset's id is "o").
 */
export type CursorShape = {
  key: 'timestamp' | 'integer' | 'number' | 'text';
  id: 'uuid' | { constant: string };
};

export const CURSOR_SHAPES = {
  /** Newest or oldest first by a timestamp, ties broken by id. */
  byTime: { key: 'timestamp', id: 'uuid' },
  /** By a position or count, ties broken by id. */
  byCount: { key: 'integer', id: 'uuid' },
  /** By a relevance score, ties broken by id. */
  byScore: { key: 'number', id: 'uuid' },
  /** By a slug or name. */
  byText: { key: 'text', id: 'uuid' },
  /** A plain offset into an ordered list. */
  byOffset: { key: 'integer', id: { constant: 'o' } },
} as const satisfies Record<string, CursorShape>;

const MAX_INTEGER = 2 ** 31 - 1;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(listing: string, keyset: Keyset): string {
  return Buffer.from(JSON.stringify([listing, keyset.key, keyset.id]), 'utf8').toString(
    'base64url',
  );
}

/**
 * The keyset of `cursor` for `listing`, or undefined when there is none (first page). Anything that
 * is not a cursor this listing produced, with values of one of the listing's `shapes`, is
 * invalid_argument.
 */
export function decodeCursor(
  listing: string,
  cursor: string | undefined | null,
  ...shapes: [CursorShape, ...CursorShape[]]
): Keyset | undefined {
  if (cursor === undefined || cursor === null || cursor === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    parsed[0] !== listing ||
    !shapes.some((s) => keyFits(parsed[1], s.key) && idFits(parsed[2], s.id))
  ) {
    throw new DomainError(
      'invalid_argument',
      'The cursor is not valid for this listing. Pass the next_cursor of the previous page unchanged, or omit it to start again.',
    );
  }
  return { key: parsed[1] as string | number, id: parsed[2] as string };
}

function keyFits(key: unknown, kind: CursorShape['key']): boolean {
  switch (kind) {
    case 'integer':
      return Number.isSafeInteger(key) && (key as number) >= 0 && (key as number) <= MAX_INTEGER;
    case 'number':
      return typeof key === 'number' && Number.isFinite(key);
    case 'timestamp':
      // The exact form the store emits, and a real date (no 2024-02-30, no year 0).
      return (
        typeof key === 'string' &&
        ISO_UTC.test(key) &&
        !Number.isNaN(Date.parse(key)) &&
        new Date(key).toISOString() === key &&
        !key.startsWith('0000')
      );
    case 'text':
      return (
        typeof key === 'string' && key.length > 0 && key.length <= 200 && !key.includes('\u0000')
      );
  }
}

function idFits(id: unknown, kind: CursorShape['id']): boolean {
  return typeof id === 'string' && (kind === 'uuid' ? isUuid(id) : id === kind.constant);
}
