// Input validation with zod: every service input goes through parse(), which turns a zod failure
// into DomainError('invalid_argument') naming each offending field. The field schemas themselves
// (and their limits) are fields.ts's, the one table. No input may carry the NUL
// character anywhere (PostgreSQL cannot store it; SQLite would): that is refused first, the same way.
import { z } from 'zod';
import { DomainError } from './errors.ts';
import { InvalidText, MissingRow, UniqueViolation } from '../store/errors.ts';

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/** The path ("filters.author", "tags.1") of the first string holding U+0000 in `input`, if any. */
export function nulPath(input: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof input === 'string')
    return input.includes('\u0000') ? path.join('.') || '(arguments)' : undefined;
  if (typeof input !== 'object' || input === null || depth > 64) return undefined;
  for (const [key, value] of Object.entries(input)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '\\u0000')].join('.');
    const found = nulPath(value, [...path, key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A store error that means the caller's input was unusable, as the domain error to answer with. */
export function inputErrorOf(err: unknown): DomainError | undefined {
  return err instanceof InvalidText
    ? new DomainError(
        'invalid_argument',
        `Invalid input: text ${NUL_MESSAGE}. Remove it and try again.`,
        { cause: err },
      )
    : undefined;
}

export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const nul = nulPath(input);
  if (nul !== undefined)
    throw new DomainError(
      'invalid_argument',
      `Invalid input: ${nul}: ${NUL_MESSAGE}. Fix these fields and try again.`,
    );
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues
    .map((issue) =>
      issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
  throw new DomainError(
    'invalid_argument',
    `Invalid input: ${problems}. Fix these fields and try again.`,
  );
}

/** Maps store errors that reach a service to domain errors; anything else passes through. */
export function translateStoreError(
  err: unknown,
  conflictMessage: string,
  missingMessage: string,
): never {
  if (err instanceof UniqueViolation)
    throw new DomainError('conflict', conflictMessage, { cause: err });
  if (err instanceof MissingRow) throw new DomainError('not_found', missingMessage, { cause: err });
  throw err;
}
