// What the account-link writes share (./account-links.ts offers them; each is a use case of the one
// runner beside it: verification-resend.ts, password-reset-*.ts, email-change-*.ts, …): a random
// single-use token of which only the hash is stored, the links' mails queued through the write's
// own transaction, and the refusals of a link that cannot be spent or of a Hamlet without mail.
import { z } from 'zod';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Person } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import {
  resetMail,
  signUpExistsMail,
  verifyMail,
  type AccountMail,
} from '../mail/account-mails.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Clock } from './auth.ts';
import { randomBase62, sha256Hex } from './secrets.ts';

export const RESET_TTL_MS = 60 * 60_000;
export const VERIFY_TTL_MS = 48 * 3_600_000;
export const EMAIL_CHANGE_TTL_MS = 24 * 3_600_000;

export type LinkPurpose = 'verify' | 'reset' | 'email_change';

/** What the link writes work with: the mailer (off: nothing is mailed), the clock, the log. */
export type LinkDeps = { mailer: Mailer; clock: Clock; logger?: Logger };

const tokenSchema = z.string().trim().min(20).max(100);

/** The site a mail names: the apex's host. */
export function siteOf(mailer: Mailer): string {
  return new URL(mailer.settings.origin).host;
}

/**
 * Where the person was when they asked for a mail: the community's name, and its base URL in the
 * form they used (`https://acme.<base>` or `https://<base>/c/acme`), which a face builds from the
 * configured origins. The mail names that site and its links land there. Absent (the APIs, the
 * apex): the apex's host and links.
 */
export const mailSite = z
  .object({ name: z.string().trim().min(1).max(200), base: z.url().max(500) })
  .optional();
export type MailSite = z.output<typeof mailSite>;

/** The name a mail gives its site. */
export function siteName(mailer: Mailer, site: MailSite): string {
  return site?.name ?? siteOf(mailer);
}

/** The absolute URL of `path` (`/email/verify?…`) on the site the person was on. */
export function siteLink(mailer: Mailer, site: MailSite, path: string): string {
  return site ? `${site.base.replace(/\/+$/, '')}${path}` : mailer.link(path);
}

export function nowMs(deps: LinkDeps): number {
  return deps.clock().getTime();
}

/** A new link token for `purpose`, its hash stored through `tx`; the token itself is returned once. */
export async function newLinkToken(
  tx: Store,
  deps: LinkDeps,
  personId: string,
  purpose: LinkPurpose,
  email: string,
  ttlMs: number,
): Promise<string> {
  const token = randomBase62(40);
  await tx.accountTokens.create({
    personId,
    purpose,
    tokenHash: sha256Hex(token),
    email,
    expiresAt: nowMs(deps) + ttlMs,
  });
  return token;
}

/** Queues an account mail to the person's address through `tx`. */
export async function mailPerson(
  tx: Store,
  deps: LinkDeps,
  person: Person,
  m: AccountMail,
  communityId?: string,
): Promise<void> {
  await deps.mailer.queue(tx, {
    to: { personId: person.id, email: person.email! },
    ...m,
    ...(communityId ? { communityId } : {}),
  });
}

/** The account's verification link, mailed (nothing with mail off or without an address). */
export async function queueVerification(
  tx: Store,
  deps: LinkDeps,
  person: Person,
  communityId?: string,
  site?: MailSite,
): Promise<void> {
  if (!deps.mailer.enabled || !person.email) return;
  const token = await newLinkToken(tx, deps, person.id, 'verify', person.email, VERIFY_TTL_MS);
  const url = siteLink(deps.mailer, site, `/email/verify?token=${token}`);
  const m = verifyMail(siteName(deps.mailer, site), url, VERIFY_TTL_MS / 3_600_000);
  await mailPerson(tx, deps, person, m, communityId);
}

/** A reset link (earlier ones revoked), mailed. */
export async function queueReset(
  tx: Store,
  deps: LinkDeps,
  person: Person,
  communityId?: string,
  site?: MailSite,
): Promise<void> {
  await tx.accountTokens.revokeAll(person.id, 'reset', nowMs(deps));
  const token = await newLinkToken(tx, deps, person.id, 'reset', person.email!, RESET_TTL_MS);
  const url = siteLink(deps.mailer, site, `/password/reset?token=${token}`);
  await mailPerson(
    tx,
    deps,
    person,
    resetMail(siteName(deps.mailer, site), url, RESET_TTL_MS / 60_000),
    communityId,
  );
}

/** The owner of an address someone tried to sign up (or change to) with is told; nothing else changes. */
export async function queueAddressTaken(
  tx: Store,
  deps: LinkDeps,
  person: Person,
  site?: MailSite,
): Promise<void> {
  const { mailer } = deps;
  const m = signUpExistsMail(
    siteName(mailer, site),
    siteLink(mailer, site, '/signin'),
    siteLink(mailer, site, '/password/forgot'),
  );
  await mailPerson(tx, deps, person, m);
}

/** The token of a link as it came, or the refusal to open it exactly as it came. */
export function linkToken(raw: unknown): string {
  const parsed = tokenSchema.safeParse(raw);
  if (!parsed.success) throw deadLink('', 'Open the link from the mail exactly as it came.');
  return parsed.data;
}

export function deadLink(what: string, fix: string): DomainError {
  return new DomainError(
    'invalid_argument',
    `This ${what ? `${what} ` : ''}link is not valid: it was used already, it expired, or it was cut short. ${fix}`,
  );
}

export function requireMail(mailer: Mailer): void {
  if (!mailer.enabled)
    throw new DomainError(
      'unavailable',
      'This Hamlet sends no e-mail (its operator has not configured HAMLET_SMTP_URL): ask an administrator.',
    );
}

/** The signed-in person with their address, for a write about it. */
export async function personWithAddress(store: Store, personId: string): Promise<Person> {
  const person = await store.people.getById(personId);
  if (!person?.email) throw new DomainError('not_found', 'Your account has no e-mail address.');
  return person;
}

/** A use case's guard: only a signed-in person (`what`: "confirm your address"). */
export function signedInTo(what: string) {
  return async ({ actor }: { actor: Actor }): Promise<void> => {
    if (actor.kind !== 'person') throw new DomainError('unauthorized', `Sign in to ${what}.`);
  };
}
