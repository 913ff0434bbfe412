// The account mails' words: verification, a sign-up with an address that has an account, password
// reset, e-mail change (to the new address) and its confirmation (to the old one). Each has a plain
// text part and an HTML part saying the same; links are absolute, on the apex.
import { escapeHtml, type AccountMailKind } from './message.ts';

export type AccountMail = { kind: AccountMailKind; subject: string; text: string; html: string };

function mail(
  kind: AccountMailKind,
  subject: string,
  paragraphs: string[],
  link?: { url: string; label: string },
): AccountMail {
  const text = [
    ...paragraphs.slice(0, 1),
    ...(link ? [`${link.label}: ${link.url}`] : []),
    ...paragraphs.slice(1),
  ].join('\n\n');
  const html = `<!doctype html><html><body>${[
    `<p>${escapeHtml(paragraphs[0]!)}</p>`,
    ...(link ? [`<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`] : []),
    ...paragraphs.slice(1).map((p) => `<p>${escapeHtml(p)}</p>`),
  ].join('')}</body></html>`;
  return { kind, subject, text: `${text}\n`, html };
}

const ignore = 'If you did not ask for this, ignore this mail: nothing changes.';

export function verifyMail(site: string, url: string, hours: number): AccountMail {
  return mail(
    'account.verify',
    `Confirm your e-mail address for ${site}`,
    [
      `Welcome to ${site}. Open the link below to confirm that this address is yours.`,
      `The link works once, for ${hours} hours. ${ignore}`,
    ],
    { url, label: 'Confirm my address' },
  );
}

export function signUpExistsMail(site: string, signIn: string, forgot: string): AccountMail {
  return mail('account.signup_exists', `Someone tried to sign up on ${site} with your address`, [
    `Someone (perhaps you) tried to create an account on ${site} with this e-mail address. It already has an account, which is unchanged.`,
    `Sign in at ${signIn}, or if you forgot your password, ask for a new one at ${forgot}. ${ignore}`,
  ]);
}

export function resetMail(site: string, url: string, minutes: number): AccountMail {
  return mail(
    'account.password_reset',
    `Reset your password on ${site}`,
    [
      `Someone (perhaps you, or an administrator for you) asked to reset the password of your account on ${site}. Open the link below to choose a new one.`,
      `The link works once, for ${minutes} minutes; every session of yours ends when the password changes. ${ignore}`,
    ],
    { url, label: 'Choose a new password' },
  );
}

export function emailChangeMail(site: string, url: string, hours: number): AccountMail {
  return mail(
    'account.email_change',
    `Confirm your new e-mail address for ${site}`,
    [
      `Someone asked to make this the sign-in address of an account on ${site}. Open the link below to confirm it.`,
      `The link works once, for ${hours} hours. ${ignore}`,
    ],
    { url, label: 'Confirm the new address' },
  );
}

export function emailChangedMail(site: string, newEmail: string, forgot: string): AccountMail {
  return mail('account.email_changed', `Your e-mail address on ${site} was changed`, [
    `The sign-in address of your account on ${site} is now ${newEmail}; this address no longer signs in.`,
    `If you did not do this, reset your password at ${forgot} with the new address, or ask an administrator for help.`,
  ]);
}
