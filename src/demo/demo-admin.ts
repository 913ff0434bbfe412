// The demo's administrator: `hamlet serve --demo` prints its e-mail and a fresh password at every
// start, so a newcomer can sign in to the web and administer acme (and read the private skunkworks)
// at once. Setting the new password ends every session of the old one: only the printed one works.
import type { Store } from '../store/repositories.ts';
import { systemActor } from '../domain/actor.ts';
import { DomainError } from '../domain/errors.ts';
import type { AccountService } from '../domain/identity/accounts.ts';
import { randomBase62 } from '../domain/identity/secrets.ts';

/** An address under `.example`, a name reserved for examples: no mail ever goes anywhere. */
export const DEMO_ADMIN_EMAIL = 'admin@acme.example';
const DEMO_COMMUNITIES = ['acme', 'skunkworks'];

export async function freshDemoAdmin(
  store: Store,
  accounts: AccountService,
): Promise<{ email: string; password: string } | undefined> {
  const acme = await store.communities.getBySlug('acme');
  if (!acme) return undefined;
  const system = systemActor('demo');
  const password = randomBase62(20);
  const input = { email: DEMO_ADMIN_EMAIL, password };
  if (await store.people.getByEmail(DEMO_ADMIN_EMAIL)) await accounts.setPassword(system, input);
  else
    await accounts
      .createUser(system, { ...input, name: 'Demo administrator' })
      .catch(async (err) => {
        // Another instance started with --demo at the same moment and made the account.
        if (!(err instanceof DomainError && err.code === 'conflict')) throw err;
        await accounts.setPassword(system, input);
      });
  for (const slug of DEMO_COMMUNITIES) {
    const community = await store.communities.getBySlug(slug);
    if (community)
      await accounts.addMember(system, community, { email: DEMO_ADMIN_EMAIL, role: 'admin' });
  }
  return input;
}
