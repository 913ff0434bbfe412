// Slug rules. Community slugs are DNS labels (they become `<slug>.<base>`); topic and category
// slugs are URL path segments. Both use [a-z0-9-] only, which also keeps LIKE patterns safe.

/** 2–63 chars, [a-z0-9-], no hyphen at either end (a valid DNS label). */
export const COMMUNITY_SLUG = /^(?=.{2,63}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Path slugs: 1–80 chars of [a-z0-9-], no hyphen at either end. */
export const PATH_SLUG = /^(?=.{1,80}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Host labels that never name a community (they would shadow the network or infrastructure). */
export const RESERVED_COMMUNITY_SLUGS = new Set([
  'www',
  'api',
  'admin',
  'static',
  'assets',
  'mail',
  'network',
]);

/** "Héllo, World: SQLite & you!" → "hello-world-sqlite-you"; never empty ("topic"). */
export function slugify(text: string, fallback = 'topic', maxLength = 60): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  let slug = ascii;
  if (slug.length > maxLength) {
    slug = slug.slice(0, maxLength);
    const cut = slug.lastIndexOf('-');
    if (cut > maxLength / 2) slug = slug.slice(0, cut);
    slug = slug.replace(/-+$/, '');
  }
  return slug || fallback;
}

/** The first of base, base-2, base-3, … not in `taken`. */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
