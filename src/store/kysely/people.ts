// People (not community-scoped: one person can belong to many communities).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { PeopleRepository } from '../repositories.ts';
import type { Person } from '../types.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { uniquely } from '../errors.ts';
import { personFromRow } from './rows.ts';
import { freeHandle, handleBase } from '../handles.ts';

export class KyselyPeople implements PeopleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: {
    displayName: string;
    email?: string | null;
    handle?: string;
    createdAt?: string;
  }): Promise<Person> {
    const handle =
      input.handle?.toLowerCase() ??
      (await freeHandle(handleBase(input.displayName), async (h) =>
        Boolean(await this.getByHandle(h)),
      ));
    const row = {
      id: newId(),
      display_name: input.displayName,
      email: input.email ? input.email.toLowerCase() : null,
      handle,
      created_at: input.createdAt ? toIso(input.createdAt) : nowIso(),
    };
    await uniquely('person with this e-mail', () =>
      this.db.insertInto('people').values(row).execute(),
    );
    return personFromRow(row);
  }

  async getById(id: string): Promise<Person | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('people')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && personFromRow(row);
  }

  async getByHandle(handle: string): Promise<Person | undefined> {
    const row = await this.db
      .selectFrom('people')
      .selectAll()
      .where('handle', '=', handle.toLowerCase())
      .executeTakeFirst();
    return row && personFromRow(row);
  }

  async setHandle(id: string, handle: string): Promise<void> {
    if (!isUuid(id)) return;
    await uniquely('person with this handle', () =>
      this.db
        .updateTable('people')
        .set({ handle: handle.toLowerCase() })
        .where('id', '=', id)
        .execute(),
    );
  }

  async setDisplayName(id: string, displayName: string): Promise<void> {
    if (!isUuid(id)) return;
    await this.db
      .updateTable('people')
      .set({ display_name: displayName })
      .where('id', '=', id)
      .execute();
  }

  async getByEmail(email: string): Promise<Person | undefined> {
    const row = await this.db
      .selectFrom('people')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row && personFromRow(row);
  }
}
