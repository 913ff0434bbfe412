// The composer's @handle hint (scripts/mentions.ts): a row of suggestions under the textarea.
export const MENTIONS_CSS = `.handle-hints{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem;padding:0;margin:.35rem 0 0}.handle-hints[hidden]{display:none}`;
