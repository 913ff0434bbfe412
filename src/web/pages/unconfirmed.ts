// Told before writing, not after: where a community requires a confirmed e-mail address before one
// posts (the rule is the domain's: requireMayPost), a person who has not confirmed theirs reads so
// above the composer of a question or a reply, with a button that mails a new link and comes back.
import { isDomainError } from '../../domain/errors.ts';
import { href, type Web, type WebDeps } from '../context.ts';
import { postForm } from '../html.ts';
import { html, type Html } from '../template.ts';

/** The notice for a signed-in person who may not post here until they confirm their address. */
export async function unconfirmedNotice(deps: WebDeps, web: Web): Promise<Html> {
  if (!web.person || web.where.kind !== 'community') return html``;
  try {
    await deps.services.accountLinks.requireMayPost(web.person.personId, web.where.community);
    return html``;
  } catch (err) {
    if (!isDomainError(err)) throw err;
    return html`<div class="notice error unconfirmed" role="status"><p>Before you can post in ${web.where.community.name}, confirm your e-mail address: open the link we mailed you when you signed up. You can write meanwhile: what you write is kept as a draft.</p>${postForm(
      web,
      href(web, '/account/verify'),
      html`<input type="hidden" name="next" value="${web.path}"><button type="submit" class="secondary">Mail me a new link</button>`,
      html`class="inline"`,
    )}</div>`;
  }
}
