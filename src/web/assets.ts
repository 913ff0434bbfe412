// The web's static files: the stylesheet (styles/: one file per area, served together as hamlet.css)
// and the scripts (scripts/: one file per enhancement). Served from /assets/ under a content hash,
// cached for a year; the CSP allows scripts and styles from the page's own origin only, so nothing
// is ever inline.
import { createHash } from 'node:crypto';
import { ADMIN_CSS } from './styles/admin.ts';
import { BASE_CSS } from './styles/base.ts';
import { FEEDBACK_CSS } from './styles/feedback.ts';
import { MENTIONS_CSS } from './styles/mentions.ts';
import { PEOPLE_CSS } from './styles/people.ts';
import { POSTS_CSS } from './styles/posts.ts';
import { READING_CSS } from './styles/reading.ts';
import { LISTS_CSS } from './styles/lists.ts';
import { UPLOADS_CSS } from './styles/uploads.ts';
import { ASK_JS } from './scripts/ask.ts';
import { COMPOSER_JS } from './scripts/composer.ts';
import { COPY_JS } from './scripts/copy.ts';
import { MENTIONS_JS } from './scripts/mentions.ts';

// Every area's rules, in order (later files may refine earlier ones).
const CSS = [
  BASE_CSS,
  FEEDBACK_CSS,
  MENTIONS_CSS,
  READING_CSS,
  ADMIN_CSS,
  UPLOADS_CSS,
  PEOPLE_CSS,
  POSTS_CSS,
  LISTS_CSS,
].join('\n');

type Asset = { body: string; type: string; path: string };

function build(name: string, body: string, type: string): [string, Asset] {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = name.lastIndexOf('.');
  return [name, { body, type, path: `/assets/${name.slice(0, dot)}.${hash}${name.slice(dot)}` }];
}

const ASSETS = new Map<string, Asset>([
  build('hamlet.css', CSS, 'text/css; charset=utf-8'),
  build('ask.js', ASK_JS, 'text/javascript; charset=utf-8'),
  build('copy.js', COPY_JS, 'text/javascript; charset=utf-8'),
  build('composer.js', `${COMPOSER_JS}\n${MENTIONS_JS}`, 'text/javascript; charset=utf-8'),
]);
const BY_PATH = new Map([...ASSETS.values()].map((a) => [a.path, a]));

/** The hashed URL of an asset. */
export function asset(name: string): string {
  const a = ASSETS.get(name);
  if (!a) throw new Error(`No asset ${name}`);
  return a.path;
}

/** The asset at a request path, if any. */
export function assetAt(path: string): Asset | undefined {
  return BY_PATH.get(path);
}
