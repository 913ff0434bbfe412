// What a suspended or silenced person is told atop every page of the community (they still read
// it: a suspension refuses writing here, and reading only a private community), and the end of a
// sanction as a reader sees it: a <time> element with the moment in its datetime attribute and a
// readable date, never the raw ISO string.
import { asSentence, readableTime } from '../domain/moderation/sanctions.ts';
import type { Web } from './context.ts';
import { html, type Html } from './template.ts';

/** `<time datetime="2027-01-06T14:43:05.447Z">Jan 6, 2027, 14:43 UTC</time>` */
export function endTime(iso: string): Html {
  return html`<time datetime="${iso}">${readableTime(iso)}</time>`;
}

/** A suspension's or silence's sentence, for the person it is on ("You are suspended here until …"). */
export function sanctionNotice(web: Web): Html {
  const s = web.sanction;
  if (!s) return html``;
  const what =
    s.mode === 'suspended'
      ? 'You are suspended here'
      : 'You are silenced here (you may read, not write)';
  return html`<div class="notice error" role="note"><p>${what} until ${endTime(s.endsAt)} by ${s.by}: ${asSentence(s.reason)} Ask a moderator if this is a mistake.</p></div>`;
}
