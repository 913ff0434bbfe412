// Opaque pagination cursors: base64url of a small JSON tuple [listing, sort key, id]. The listing
// tag keeps a cursor from one listing (say topics sorted by "top") from being replayed on another.
import type { Keyset } from '../store/types.ts';
import { DomainError } from './errors.ts';

export function encodeCursor(listing: string, keyset: Keyset): string {
  return Buffer.from(JSON.stringify([listing, keyset.key, keyset.id]), 'utf8').toString('base64url');
}

export function decodeCursor(listing: string, cursor: string | undefined | null): Keyset | undefined {
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
    !(typeof parsed[1] === 'string' || typeof parsed[1] === 'number') ||
    typeof parsed[2] !== 'string'
  ) {
    throw new DomainError(
      'invalid_argument',
      'The cursor is not valid for this listing. Pass the next_cursor of the previous page unchanged, or omit it to start again.',
    );
  }
  return { key: parsed[1], id: parsed[2] };
}
