// The small line icons of the post action rows (vote, reply, quote, bookmark, edit, link): inline
// SVG in the text's colour, hidden from screen readers; every control that shows one names itself
// in words (a visually hidden label), so the icon is only what the eye sees.
import { html, type Html } from '../template.ts';

const PATHS = {
  up: 'M8 2.5 14 11H2z',
  down: 'M8 13.5 2 5h12z',
  reply: 'M6.5 3v2.6C11 6 13.8 8.5 14.5 13c-1.6-2.4-4-3.6-8-3.6V12L1.5 7.5z',
  quote:
    'M2 3.5h5v5c0 2.4-1.3 3.8-3.8 4.4l-.5-1.2c1.3-.5 2-1.3 2.1-2.2H2zm7 0h5v5c0 2.4-1.3 3.8-3.8 4.4l-.5-1.2c1.3-.5 2-1.3 2.1-2.2H9z',
  bookmark: 'M4 1.5h8a.5.5 0 0 1 .5.5v12.5L8 11.3l-4.5 3.2V2a.5.5 0 0 1 .5-.5z',
  edit: 'M11.3 1.6a1 1 0 0 1 1.4 0l1.7 1.7a1 1 0 0 1 0 1.4L6 13.1l-3.8.8.8-3.8z',
  link: 'M6.8 10.6 5.7 11.7a1.9 1.9 0 0 1-2.7-2.7l2.2-2.2a1.9 1.9 0 0 1 2.7 0l1-1a3.3 3.3 0 0 0-4.7 0L2 8a3.3 3.3 0 0 0 4.7 4.7l1.2-1.2zm2.4-5.2 1.1-1.1a1.9 1.9 0 0 1 2.7 2.7l-2.2 2.2a1.9 1.9 0 0 1-2.7 0l-1 1a3.3 3.3 0 0 0 4.7 0L14 8a3.3 3.3 0 0 0-4.7-4.7L8.1 4.5z',
} as const;

export type IconName = keyof typeof PATHS;

export function icon(name: IconName): Html {
  return html`<svg class="icon" aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 16 16"><path fill="currentColor" d="${PATHS[name]}"/></svg>`;
}
