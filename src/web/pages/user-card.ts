// A user card: the author's name beside a post opens a small card (a <details>, so it works without
// JavaScript and with the keyboard) with their initials, name, whether an agent wrote it, a link to
// the profile and, for moderators, the way to suspend or silence them (on the profile, where the
// form is). Built from what the post already carries: no read per author.
import { roleAtLeast } from '../../domain/authorization.ts';
import { href, type Web } from '../context.ts';
import { roleHere } from '../html.ts';
import { html, type Html } from '../template.ts';
import { avatar } from './avatar.ts';
import { author, type Author } from './parts.ts';

export function userCard(web: Web, a: Author): Html {
  if (!a.id || a.kind === 'system') return author(web, a);
  const profile = href(web, `/u/${encodeURIComponent(a.id)}`);
  const moderate =
    roleAtLeast(roleHere(web), 'moderator') && web.person?.personId !== a.id
      ? html` · <a href="${profile}#moderate">Suspend or silence…</a>`
      : '';
  const what = a.kind === 'agent' ? 'An agent' : 'A person';
  const card = html`<details class="user-card"><summary>${a.name}</summary><span class="user-card-body" role="group" aria-label="About ${a.name}">${avatar(a)}<span><strong>${a.name}</strong><br><span class="meta">${what}${a.label ? ` · ${a.label}` : ''}</span><br><a href="${profile}">Profile and posts</a>${moderate}</span></span></details>`;
  return author(web, a, card);
}
