// Generated avatars: a person's or agent's initials on one of twelve colours, the colour fixed by
// their id (or name), so everyone keeps theirs on every page. Colours are classes of the stylesheet
// (the CSP allows no inline style); decorative beside the name, so hidden from screen readers.
import { createHash } from 'node:crypto';
import { html, type Html } from '../template.ts';
import type { Author } from './parts.ts';

export const AVATAR_COLOURS = 12;

/** Up to two initials of a name ("Ada Lovelace" → "AL", "acme-helper" → "AH"). */
export function initials(name: string): string {
  const words = name
    .replace(/\(.*?\)/g, ' ')
    .split(/[\s._-]+/)
    .filter((w) => /\p{L}|\p{N}/u.test(w));
  const letters = words.slice(0, 2).map((w) => [...w.replace(/[^\p{L}\p{N}]/gu, '')][0] ?? '');
  return letters.join('').toUpperCase() || '?';
}

/** The colour of an id: the same for the same id, spread over the twelve. */
export function colourOf(key: string): number {
  return createHash('sha256').update(key).digest()[0]! % AVATAR_COLOURS;
}

export function avatar(a: Pick<Author, 'id' | 'name' | 'kind'>): Html {
  const kind = a.kind === 'agent' ? ' agent' : '';
  return html`<span class="avatar av-${colourOf(a.id ?? a.name)}${kind}" aria-hidden="true">${initials(a.name)}</span>`;
}
