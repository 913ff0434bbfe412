// email.verification_resend: a signed-in person asks for a new link to confirm their address
// (earlier links keep working until they expire); refused when it is confirmed already, unless mail
// to it bounced.
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import { DomainError } from '../errors.ts';
import type { UseCase } from '../writes/use-case.ts';
import {
  personWithAddress,
  mailSite,
  queueVerification,
  requireMail,
  signedInTo,
  type LinkDeps,
} from './link-mails.ts';

const contract = z.object({ site: mailSite });

type Loaded = { person: Person; confirmed: boolean };

export function verificationResend(
  deps: LinkDeps,
): UseCase<z.output<typeof contract>, Loaded, { email: string }, null> {
  return {
    name: 'email.verification_resend',
    contract,
    guard: signedInTo('confirm your address'),
    load: async ({ store, actor }) => {
      const person = await personWithAddress(store, actor.kind === 'person' ? actor.personId : '');
      requireMail(deps.mailer);
      const bounced = (await store.mail.bounceState(person.email!))?.disabledAt;
      const confirmed =
        !bounced && (await store.accountTokens.verifiedEmail(person.id)) === person.email;
      return { person, confirmed };
    },
    policy: async (_ctx, _input, { person, confirmed }) => {
      if (confirmed) throw new DomainError('conflict', `${person.email} is already confirmed.`);
      return { mode: 'apply', reason: 'not_confirmed' };
    },
    apply: async ({ tx }, input, { person }) => {
      await queueVerification(tx, deps, person, undefined, input.site);
      return { email: person.email! };
    },
    audit: () => ({ targets: {} }),
  };
}
