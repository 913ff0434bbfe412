// email.verify: a verification link is spent (one conditional update claims it) and the address is
// verified if it is still the account's. Confirmed again, an address that bounced reads its mail
// now, so mail to it is on again.
import { z } from 'zod';
import type { UseCase } from '../writes/use-case.ts';
import { deadLink, linkToken, nowMs, type LinkDeps } from './link-mails.ts';
import { sha256Hex } from './secrets.ts';

const contract = z.object({ token: z.unknown() });

export function emailVerify(
  deps: LinkDeps,
): UseCase<z.output<typeof contract>, { tokenHash: string }, { email: string }, null> {
  return {
    name: 'email.verify',
    contract,
    load: async (_ctx, input) => ({ tokenHash: sha256Hex(linkToken(input.token)) }),
    policy: async () => ({ mode: 'apply', reason: 'link' }),
    apply: async ({ tx }, _input, { tokenHash }) => {
      const spent = await tx.accountTokens.consume(tokenHash, 'verify', nowMs(deps));
      const person = spent && (await tx.people.getById(spent.personId));
      if (!spent || !person || person.email !== spent.email)
        throw deadLink('confirmation', 'Sign in and ask for a new one on your account page.');
      await tx.accountTokens.markVerified(person.id, spent.email);
      await tx.mail.clearBounces(spent.email);
      deps.logger?.info({ event: 'email.verified', personId: person.id }, 'address verified');
      return { email: spent.email };
    },
    audit: () => ({ targets: {} }),
  };
}
