// handle.set: the person's @handle, unique over the installation (mentions use it). Refused with
// conflict when someone else has it: seen before the write, or (two people racing for one handle)
// by the unique index when the row is written.
import { z } from 'zod';
import { HANDLE_PATTERN } from '../../store/handles.ts';
import { UniqueViolation } from '../../store/errors.ts';
import { DomainError } from '../errors.ts';
import { personalWrite } from './personal-write.ts';

export const handleField = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    HANDLE_PATTERN,
    'a handle is 2-30 characters of a-z, 0-9, "_" and "-", starting with a letter or digit',
  );

export const handleSet = personalWrite({
  name: 'handle.set',
  contract: z.object({ handle: handleField }),
  load: async ({ store }, person, input) => {
    const holder = await store.people.getByHandle(input.handle);
    if (holder && holder.id !== person.personId) throw taken(input.handle);
    return null;
  },
  apply: async (step, person, input) => {
    try {
      await step.tx.people.setHandle(person.personId, input.handle);
    } catch (err) {
      if (err instanceof UniqueViolation) throw taken(input.handle);
      throw err;
    }
    return { handle: input.handle };
  },
  targets: () => ({}),
});

function taken(handle: string): DomainError {
  return new DomainError('conflict', `The handle "@${handle}" is taken. Choose another one.`);
}
