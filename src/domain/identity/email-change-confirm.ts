// email.change: an e-mail change link is spent (one conditional update claims it): the account signs
// in with the new address, which counts as verified, and the old address is told.
import { z } from 'zod';
import { UniqueViolation } from '../../store/errors.ts';
import { DomainError } from '../errors.ts';
import { emailChangedMail } from '../mail/account-mails.ts';
import type { UseCase } from '../writes/use-case.ts';
import { deadLink, linkToken, nowMs, siteOf, type LinkDeps } from './link-mails.ts';
import { sha256Hex } from './secrets.ts';

const contract = z.object({ token: z.unknown() });

export function emailChangeConfirm(
  deps: LinkDeps,
): UseCase<
  z.output<typeof contract>,
  { tokenHash: string },
  { email: string; personId: string },
  null
> {
  return {
    name: 'email.change',
    contract,
    load: async (_ctx, input) => ({ tokenHash: sha256Hex(linkToken(input.token)) }),
    policy: async () => ({ mode: 'apply', reason: 'link' }),
    apply: async ({ tx }, _input, { tokenHash }) => {
      const spent = await tx.accountTokens.consume(tokenHash, 'email_change', nowMs(deps));
      const person = spent && (await tx.people.getById(spent.personId));
      if (!spent || !person) throw deadLink('confirmation', 'Ask for the change again.');
      try {
        await tx.accountTokens.changeEmail(person.id, spent.email);
      } catch (err) {
        if (!(err instanceof UniqueViolation)) throw err;
        throw new DomainError(
          'conflict',
          'Another account took that address meanwhile; nothing was changed.',
        );
      }
      await tx.accountTokens.markVerified(person.id, spent.email);
      if (person.email) {
        const { mailer } = deps;
        const m = emailChangedMail(siteOf(mailer), spent.email, mailer.link('/password/forgot'));
        await mailer.queue(tx, { to: { personId: person.id, email: person.email }, ...m });
      }
      return { email: spent.email, personId: person.id };
    },
    audit: () => ({ targets: {} }),
  };
}
