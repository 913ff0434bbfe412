// Input validation with zod: every service input goes through parse(), which turns a zod failure
// into DomainError('invalid_argument') naming each offending field.
import { z } from 'zod';
import { DomainError } from './errors.ts';
import { MissingRow, UniqueViolation } from '../store/errors.ts';

export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
  throw new DomainError('invalid_argument', `Invalid input: ${problems}. Fix these fields and try again.`);
}

/** Maps store errors that reach a service to domain errors; anything else passes through. */
export function translateStoreError(err: unknown, conflictMessage: string, missingMessage: string): never {
  if (err instanceof UniqueViolation) throw new DomainError('conflict', conflictMessage, { cause: err });
  if (err instanceof MissingRow) throw new DomainError('not_found', missingMessage, { cause: err });
  throw err;
}

export const titleSchema = z.string().trim().min(3, 'must be at least 3 characters').max(200, 'must be at most 200 characters');
export const bodySchema = z.string().trim().min(1, 'must not be empty').max(100_000, 'must be at most 100000 characters');
export const tagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'tags are 1-32 characters of a-z, 0-9 and "-"');
export const tagsSchema = z.array(tagSchema).max(10, 'at most 10 tags').default([]);
export const limitSchema = (max: number, fallback: number) => z.number().int().min(1).max(max).default(fallback);
export const isoDateSchema = z.iso.datetime({ offset: true });
