// password.reset: a reset link is spent (one conditional update claims it): the new password is
// set, every session of the account ends, the other reset links are revoked, and the address counts
// as verified (the mail reached it).
import { z } from 'zod';
import { password as passwordField } from '../fields.ts';
import { parse } from '../validate.ts';
import type { UseCase } from '../writes/use-case.ts';
import { deadLink, linkToken, nowMs, type LinkDeps } from './link-mails.ts';
import { hashPassword, sha256Hex } from './secrets.ts';

const contract = z.object({ token: z.unknown(), password: z.unknown() });

type Loaded = { tokenHash: string; hash: string };

export function passwordReset(
  deps: LinkDeps,
): UseCase<z.output<typeof contract>, Loaded, { email: string }, null> {
  return {
    name: 'password.reset',
    contract,
    // The link's refusal first, then the password's; hashed before the transaction.
    load: async (_ctx, input) => {
      const token = linkToken(input.token);
      const { password } = parse(z.object({ password: passwordField }), {
        password: input.password,
      });
      return { tokenHash: sha256Hex(token), hash: await hashPassword(password) };
    },
    policy: async () => ({ mode: 'apply', reason: 'link' }),
    apply: async ({ tx }, _input, { tokenHash, hash }) => {
      const now = nowMs(deps);
      const spent = await tx.accountTokens.consume(tokenHash, 'reset', now);
      const person = spent && (await tx.people.getById(spent.personId));
      if (!spent || !person || person.email !== spent.email)
        throw deadLink('reset', 'Ask for a new one at /password/forgot.');
      await tx.identity.credentials.setPasswordHash(person.id, hash);
      await tx.identity.credentials.revokeSessionsOf(person.id, deps.clock().toISOString());
      await tx.accountTokens.revokeAll(person.id, 'reset', now);
      await tx.accountTokens.markVerified(person.id, spent.email);
      return { email: spent.email };
    },
    audit: () => ({ targets: {} }),
  };
}
