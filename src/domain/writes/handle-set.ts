// handle.set: the person's @handle, unique over the installation (mentions use it). Refused with
// conflict when someone else has it.
import { z } from 'zod';
import { HANDLE_PATTERN } from '../../store/handles.ts';
import { UniqueViolation } from '../../store/errors.ts';
import { DomainError } from '../errors.ts';
import type { PersonalWrite } from './personal-write.ts';

export const handleField = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    HANDLE_PATTERN,
    'a handle is 2-30 characters of a-z, 0-9, "_" and "-", starting with a letter or digit',
  );

const contract = z.object({ handle: handleField });

export const handleSet: PersonalWrite<typeof contract, null, { handle: string }> = {
  kind: 'handle.set',
  contract,
  load: async () => null,
  apply: async (tx, person, _community, input) => {
    const holder = await tx.people.getByHandle(input.handle);
    if (holder && holder.id !== person.personId) throw taken(input.handle);
    try {
      await tx.people.setHandle(person.personId, input.handle);
    } catch (err) {
      if (err instanceof UniqueViolation) throw taken(input.handle);
      throw err;
    }
    return { handle: input.handle };
  },
};

function taken(handle: string): DomainError {
  return new DomainError('conflict', `The handle "@${handle}" is taken. Choose another one.`);
}
