// What the account services share: finding an account by its address (the e-mail address and
// password fields are fields.ts's, `email` and `password`).
import type { Store } from '../../store/repositories.ts';
import type { Person } from '../../store/types.ts';
import { DomainError } from '../errors.ts';

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
