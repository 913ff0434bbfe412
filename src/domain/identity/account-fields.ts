// What the account services share: the e-mail address and password rules (an address is trimmed
// and lower-cased; a password is 10-1024 characters) and finding an account by its address.
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Person } from '../../store/types.ts';
import { DomainError } from '../errors.ts';

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('must be an e-mail address'));
export const passwordSchema = z
  .string()
  .min(10, 'must be at least 10 characters')
  .max(1024, 'must be at most 1024 characters');

/** The account of `email` (already normalized), or not_found saying how to create it. */
export async function requirePerson(store: Store, email: string): Promise<Person> {
  const person = await store.people.getByEmail(email);
  if (!person)
    throw new DomainError(
      'not_found',
      `No account with the e-mail "${email}". Create it first with \`hamlet user create\`.`,
    );
  return person;
}
