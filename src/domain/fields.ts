// Every input field of Hamlet, with the one limit the product sets for it. The domain services
// validate with these schemas, and the operation catalogue (src/operations/) builds every MCP tool,
// REST route and web form from them, so a limit is stated once and every face enforces the same.
//
// The limits, as the product decides them:
//   title            8–200 characters (a specific, searchable title; imports pad shorter subjects)
//   question body    10–50,000 characters of Markdown (the first post of a topic, an article body)
//   reply body       2–50,000 characters of Markdown
//   tags             at most 5, each 1–32 characters of a-z, 0-9 and "-" (given in any case)
//   search query     1–500 characters;  question (suggest_answer) 3–2,000 characters
//   cursor           1–500 characters, as returned by the previous page
//   idempotency key  8–200 printable ASCII characters without spaces
//   community slug   2–63 characters (a DNS label)
//   e-mail address   at most 254 characters;  password 10–1,024 characters
//   key lifetime     1–3,650 days
//   upload name      1–200 characters (the file's name as sent; stored as a safe name of at most 100)
//   person's name    1–100 characters;  bio up to 1,000 (neither with control or invisible characters)
//   member search    1–100 characters
//   environment      at most 10 name → version pairs (names 1–40 of a-z 0-9 . + _ -, lower-cased;
//                    versions 1–40 characters);  sources at most 10 post ids;  alternatives at
//                    most 5 phrasings, each a search query
//   agent name       1–100 characters
// Titles and agent names are one line: control characters (CR, LF, tab, U+0085, …), the line and
// paragraph separators (U+2028, U+2029) and the bidirectional overrides become one space each run.
import { z } from 'zod';
import { COMMUNITY_SLUG, PATH_SLUG } from './slug.ts';

export const LIMITS = {
  title: { min: 8, max: 200 },
  questionBody: { min: 10, max: 50_000 },
  replyBody: { min: 2, max: 50_000 },
  tags: { max: 5 },
  tag: { max: 32 },
  searchQuery: { min: 1, max: 500 },
  question: { min: 3, max: 2_000 },
  cursor: { max: 500 },
  idempotencyKey: { min: 8, max: 200 },
  reason: { max: 2_000 },
  outcomeNote: { min: 1, max: 2_000 },
  communitySlug: { min: 2, max: 63 },
  email: { max: 254 },
  password: { min: 10, max: 1_024 },
  expiresInDays: { min: 1, max: 3_650 },
  /** How long a suspension or silence lasts. */
  sanctionDays: { min: 1, max: 3_650 },
  /** Each number of a community's moderation settings (thresholds, sandbox limits). */
  moderationSetting: { min: 0, max: 10_000 },
  pageNumber: { min: 1, max: 100_000 },
  /** What follows an "@" as it is typed: the start of a handle or a name. */
  handlePrefix: { min: 1, max: 30 },
  /** An uploaded file's name as the client sends it (the size limit is the operator's, in Config). */
  uploadName: { min: 1, max: 200 },
  /** A part of a member's name, e-mail address or handle, on the members page. */
  memberQuery: { min: 1, max: 100 },
  /** A person's name, as others see it beside their posts. */
  displayName: { min: 1, max: 100 },
  /** What a person says of themselves on their profile. */
  bio: { min: 0, max: 1_000 },
  /** Name → version pairs of an environment (each name 1-40 characters, each version 1-40). */
  environment: { max: 10 },
  /** Post ids a write or a report cites as what it used. */
  sources: { max: 10 },
  /** Other phrasings of a search's question. */
  alternatives: { max: 5 },
} as const;

/** A limit as the descriptions and hints state it: "8-200". */
export const span = (limit: { min: number; max: number }): string => `${limit.min}-${limit.max}`;

/** What never belongs in a one-line text: controls, line separators, bidirectional overrides. */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]+/gu;

/** `s` as one line: each run of what breaks or reorders a line becomes a single space. */
export const oneLine = (s: string): string => s.replace(NOT_ONE_LINE, ' ');

const text = (what: { min: number; max: number }) =>
  z
    .string()
    .trim()
    .min(what.min, what.min === 1 ? 'must not be empty' : `must be at least ${what.min} characters`)
    .max(what.max, `must be at most ${what.max} characters`);

/** A one-line text: cleaned of line breaks and controls first, then trimmed and measured. */
const line = (what: { min: number; max: number }) =>
  z
    .string()
    .overwrite(oneLine)
    .trim()
    .min(what.min, what.min === 1 ? 'must not be empty' : `must be at least ${what.min} characters`)
    .max(what.max, `must be at most ${what.max} characters`);

export const title = line(LIMITS.title);
/** An agent's name, as it is shown beside its posts and @mentioned. */
export const agentName = line({ min: 1, max: 100 });
export const questionBody = text(LIMITS.questionBody);
export const replyBody = text(LIMITS.replyBody);
/** A draft's title: any length up to a title's (it is checked as a title when posted). */
export const draftTitle = z
  .string()
  .overwrite(oneLine)
  .trim()
  .max(LIMITS.title.max, `must be at most ${LIMITS.title.max} characters`);

export const tag = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    new RegExp(`^[a-z0-9][a-z0-9-]{0,${LIMITS.tag.max - 1}}$`),
    `tags are 1-${LIMITS.tag.max} characters of a-z, 0-9 and "-"`,
  );
export const tags = z.array(tag).max(LIMITS.tags.max, `at most ${LIMITS.tags.max} tags`);

/** A community's slug (a DNS label). */
export const communitySlug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    COMMUNITY_SLUG,
    `must be ${LIMITS.communitySlug.min}-${LIMITS.communitySlug.max} characters of a-z, 0-9 and "-", not starting or ending with "-"`,
  );
/** A category or article slug (a URL path segment). */
export const pathSlug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(PATH_SLUG, 'must be 1-80 characters of a-z, 0-9 and "-"');

/** A category by slug or id. */
export const categoryRef = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(80, 'must be at most 80 characters');
/** A topic (or article) by id or slug. */
export const topicRef = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');
/** A post, approval or other record by id. */
export const recordId = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters');

export const cursor = z
  .string()
  .min(1, 'must not be empty')
  .max(LIMITS.cursor.max, `must be at most ${LIMITS.cursor.max} characters`);
export const pageLimit = (max: number, fallback: number) =>
  z
    .number()
    .int('must be a whole number')
    .min(1, `must be between 1 and ${max}`)
    .max(max, `must be between 1 and ${max} (default ${fallback})`)
    .default(fallback);

/** A page number of a paged listing (1 is the first page): an alternative to a cursor. */
export const pageNumber = z
  .number()
  .int('must be a whole number')
  .min(LIMITS.pageNumber.min, `must be at least ${LIMITS.pageNumber.min}`)
  .max(LIMITS.pageNumber.max, `must be at most ${LIMITS.pageNumber.max}`);

export const idempotencyKey = z
  .string()
  .min(LIMITS.idempotencyKey.min, `must be at least ${LIMITS.idempotencyKey.min} characters`)
  .max(LIMITS.idempotencyKey.max, `must be at most ${LIMITS.idempotencyKey.max} characters`)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const searchQuery = text(LIMITS.searchQuery);
export const question = text(LIMITS.question);
/** How long a new key lives, in days (a key may also never expire). */
export const expiresInDays = z
  .number()
  .int('must be a whole number')
  .min(LIMITS.expiresInDays.min, `must be at least ${LIMITS.expiresInDays.min} day`)
  .max(LIMITS.expiresInDays.max, `must be at most ${LIMITS.expiresInDays.max} days`);

/** An e-mail address, trimmed and lower-cased (how accounts are found). */
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(LIMITS.email.max, `must be at most ${LIMITS.email.max} characters`)
  .pipe(z.email('must be an e-mail address'));
/** A new password (a current one is checked against the account, never against these limits). */
export const password = z
  .string()
  .min(LIMITS.password.min, `must be at least ${LIMITS.password.min} characters`)
  .max(LIMITS.password.max, `must be at most ${LIMITS.password.max} characters`);
/** A key by its id or by its (display) prefix. */
export const keyRef = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters');

/** Why a moderator rejected a queued write: the submitter reads it to fix the request. */
export const reason = text({ min: 1, max: LIMITS.reason.max });
/** What was tried when an answer did (or did not) work: shown to the topic's author and watchers. */
export const outcomeNote = text(LIMITS.outcomeNote);
/** A part of a member's name, e-mail address or handle (the members page's search). */
export const memberQuery = text(LIMITS.memberQuery);

/**
 * Control characters, and the format characters that reorder or hide text (bidirectional overrides
 * and isolates, zero-width characters): refused in names, where they would disguise who wrote what.
 */
const HIDDEN_CHARACTERS = /[\p{Cc}\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;

/** A person's name: 1-100 characters, no control or hidden characters. */
export const displayName = text(LIMITS.displayName).refine(
  (v) => !HIDDEN_CHARACTERS.test(v),
  'must not contain control characters or invisible formatting characters',
);

/** A bio: up to 1,000 characters; line breaks are kept, other control characters refused. */
export const bio = z
  .string()
  .trim()
  .max(LIMITS.bio.max, `must be at most ${LIMITS.bio.max} characters`)
  .refine(
    (v) => !HIDDEN_CHARACTERS.test(v.replace(/\r?\n/g, '')),
    'must not contain control characters (other than line breaks) or invisible formatting characters',
  );

/** The start of an @handle or a name, for suggestions. */
export const handlePrefix = text(LIMITS.handlePrefix);
export const uploadName = text(LIMITS.uploadName);
/** A vote on a post: 1 up, -1 down, 0 takes one's vote back. */
export const voteValue = z.union([z.literal(1), z.literal(-1), z.literal(0)]);

/** Why a moderator acted (close, delete, move, …): shown in the moderation log and on the topic. */
export const moderationReason = z
  .string()
  .trim()
  .max(LIMITS.reason.max, `must be at most ${LIMITS.reason.max} characters`);

/** An ISO 8601 date or date-time, normalized to a full UTC timestamp. */
export const isoDate = z
  .string()
  .trim()
  .max(40, 'must be at most 40 characters')
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && isPlausibleDate(v),
    {
      message:
        'must be an ISO 8601 date such as "2024-05-01" or "2024-05-01T12:00:00Z", between the years 1970 and 9999',
    },
  )
  .transform((v) => new Date(v).toISOString());

function isPlausibleDate(v: string): boolean {
  const ms = Date.parse(v);
  return !Number.isNaN(ms) && ms >= 0 && ms < Date.UTC(10_000, 0, 1);
}

export const SOURCE_TYPES = ['topic', 'post', 'article'] as const;

/** An environment's name: lower case letters, digits and . + _ - ("node", "postgres", "os"). */
const ENVIRONMENT_NAME = /^[a-z0-9.+_-]{1,40}$/;

/**
 * Keys normalized to lower case and checked against ENVIRONMENT_NAME, at most `max` of them; each
 * value checked by `value` (an error names the pair and what it must be).
 */
function environmentOf(value: z.ZodString, what: string) {
  return z
    .record(z.string(), value)
    .transform((pairs, ctx) => {
      const out: Record<string, string> = {};
      for (const [raw, version] of Object.entries(pairs)) {
        const name = raw.trim().toLowerCase();
        if (!ENVIRONMENT_NAME.test(name))
          ctx.addIssue({
            code: 'custom',
            path: [raw],
            message: `"${raw}" is not an environment name: use 1-40 of a-z, 0-9, ".", "+", "_", "-" (e.g. "node", "postgres", "os")`,
          });
        out[name] = version;
      }
      if (Object.keys(out).length > LIMITS.environment.max)
        ctx.addIssue({
          code: 'custom',
          message: `must name at most ${LIMITS.environment.max} ${what}`,
        });
      return out;
    })
    .describe(
      `Up to ${LIMITS.environment.max} name → version pairs ({"node": "22.4", "postgres": "16", "os": "debian 12"}); names are lower-cased.`,
    );
}

const environmentVersion = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters');

/** Where something ran: up to 10 name → version pairs. */
export const environment = environmentOf(environmentVersion, 'pairs');
/** A search's environment filter: a version prefix per name ({"node": "22"} keeps node 22.x). */
export const environmentFilter = environmentOf(environmentVersion, 'names');

/** The posts an agent used (cited as sources): up to 10 post ids. */
export const sourcePosts = z
  .array(recordId)
  .max(LIMITS.sources.max, `must list at most ${LIMITS.sources.max} post ids`);

/** Other phrasings of a search's question, each searched and the rankings fused. */
export const alternatives = z
  .array(text(LIMITS.searchQuery))
  .max(LIMITS.alternatives.max, `must list at most ${LIMITS.alternatives.max} phrasings`);

/** The filters of a search, on every face (search_community, search_network, REST, the web page). */
export const searchFilters = z
  .strictObject({
    category: categoryRef
      .toLowerCase()
      .optional()
      .describe('Only results in this category (its slug, e.g. "support").'),
    tags: tags
      .optional()
      .describe(`Only topics carrying all of these tags (at most ${LIMITS.tags.max}).`),
    solved_only: z
      .boolean()
      .optional()
      .describe('Only topics that have an accepted answer. Default false.'),
    source_types: z
      .array(z.enum(SOURCE_TYPES))
      .min(1, 'must list at least one of "topic", "post", "article"')
      .optional()
      .describe(
        'Kinds of result: "topic" (a question and its title), "post" (a reply), "article" (knowledge base). Default all.',
      ),
    author: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .optional()
      .describe(
        'Only content by this author: "@handle", the display name, or the start of the name or of a word of it ("justin" finds "Justin Mason").',
      ),
    since: isoDate
      .optional()
      .describe('Only content created at or after this ISO 8601 date or time, e.g. "2024-05-01".'),
    until: isoDate.optional().describe('Only content created before this ISO 8601 date or time.'),
    sort: z
      .enum(['relevance', 'newest'])
      .optional()
      .describe(
        '"relevance" (default): best match first. "newest": topics whose matching posts are newest first (each shows its accepted answer when that matches, else its newest matching post; always a lexical search).',
      ),
    limit: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be between 1 and 50')
      .max(50, 'must be between 1 and 50 (default 10)')
      .optional()
      .describe('How many results, 1-50. Default 10.'),
    cursor: cursor.optional().describe('next_cursor of a previous result, to get the next page.'),
    environment: environmentFilter
      .optional()
      .describe(
        'Only results whose post, or a "this worked" report on it, ran in this environment: a version prefix per name ({"node": "22"} keeps node 22.x).',
      ),
  })
  .describe('Optional filters.');

/** How many days a suspension or silence lasts. */
export const sanctionDays = z
  .number()
  .int('must be a whole number')
  .min(LIMITS.sanctionDays.min, `must be at least ${LIMITS.sanctionDays.min} day`)
  .max(LIMITS.sanctionDays.max, `must be at most ${LIMITS.sanctionDays.max} days`);

/** One number of a community's moderation settings. */
export const moderationSetting = z
  .number()
  .int('must be a whole number')
  .min(LIMITS.moderationSetting.min, `must be at least ${LIMITS.moderationSetting.min}`)
  .max(LIMITS.moderationSetting.max, `must be at most ${LIMITS.moderationSetting.max}`);
