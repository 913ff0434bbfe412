// `hamlet import mail`: messages → threads → topics and posts of one community, with the original
// dates, authors as imported people (display name only; the address is kept nowhere, only a hash
// to recognise the same sender again).
//
// Idempotent and resumable: every imported message is recorded by key (Message-ID, or a content
// hash) in the same transaction as its post, in short transactions (./writer.ts) that leave a live
// server on the same database its turn at the write lock. A re-run skips what is recorded; after a
// crash (even SIGKILL) a re-run finishes the rest, and the result equals that of an uninterrupted
// run because threading is deterministic.
import type { Store } from '../../store/repositories.ts';
import type { Category, Community } from '../../store/types.ts';
import { systemActor } from '../../domain/actor.ts';
import { CategoryService } from '../../domain/categories.ts';
import { DomainError } from '../../domain/errors.ts';
import { ContentEvents } from '../../domain/events.ts';
import { AuditService } from '../../domain/identity/audit.ts';
import { WriteService } from '../../domain/writes/write-service.ts';
import { parseMessage, type MailMessage } from './message.ts';
import { readMessages, type RawMessage } from './sources.ts';
import { threadMessages, type Thread } from './thread.ts';
import { defaultLimits, writeThreads, type ImportDeps } from './writer.ts';

export type { ImportDeps } from './writer.ts';

export type ImportProgress = {
  phase: 'reading' | 'threading' | 'importing';
  done: number;
  total: number;
};

export type MailImportOptions = {
  communitySlug: string;
  /** Existing category slug; default: a "mailing-list" discussion category, created on first use. */
  categorySlug?: string;
  /** Directories / mbox files to read, or already-read messages. */
  paths?: string[];
  messages?: RawMessage[];
  /** New posts per transaction at most (default 200; a transaction also ends after ~200 ms). */
  batchSize?: number;
  /** Picks which threads to import (the demo takes a bounded subset); must be deterministic. */
  selectThreads?: (threads: Thread[]) => Thread[];
  onProgress?: (progress: ImportProgress) => void;
};

export type MailImportReport = {
  files: number;
  skippedFiles: number;
  messages: number;
  unparseable: number;
  duplicates: number;
  threads: number;
  topicsCreated: number;
  postsCreated: number;
  alreadyImported: number;
  peopleCreated: number;
  durationMs: number;
};

const DEFAULT_CATEGORY = {
  slug: 'mailing-list',
  name: 'Mailing list',
  description: 'Threads imported from the mailing list archive.',
};

/**
 * `deps.events` are the process's content events: they hear each batch once it commits (search,
 * MCP updates). Every message is written through the write runner as the system.
 */
export async function importMail(
  store: Store,
  deps: ImportDeps,
  options: MailImportOptions,
): Promise<MailImportReport> {
  const started = Date.now();
  const progress = options.onProgress ?? (() => undefined);
  const community = await store.communities.getBySlug(options.communitySlug);
  if (!community) {
    throw new DomainError(
      'not_found',
      `No community "${options.communitySlug}". Create it first: hamlet community create ${options.communitySlug} --name "…"`,
    );
  }
  const category = await resolveCategory(store, deps, community, options.categorySlug);

  const read = options.messages
    ? { messages: options.messages, skippedFiles: [] }
    : await readMessages(options.paths ?? []);
  const parsed: MailMessage[] = [];
  const seen = new Set<string>();
  let unparseable = 0;
  let duplicates = 0;
  read.messages.forEach((raw, i) => {
    try {
      const message = parseMessage(raw.raw);
      if (seen.has(message.key)) duplicates++;
      else {
        seen.add(message.key);
        parsed.push(message);
      }
    } catch {
      unparseable++;
    }
    if (i % 250 === 0) progress({ phase: 'reading', done: i, total: read.messages.length });
  });
  progress({ phase: 'threading', done: 0, total: parsed.length });
  const allThreads = threadMessages(parsed);
  const threads = options.selectThreads ? options.selectThreads(allThreads) : allThreads;

  const report: MailImportReport = {
    files: read.messages.length + read.skippedFiles.length,
    skippedFiles: read.skippedFiles.length,
    messages: parsed.length,
    unparseable,
    duplicates,
    threads: threads.length,
    topicsCreated: 0,
    postsCreated: 0,
    alreadyImported: 0,
    peopleCreated: 0,
    durationMs: 0,
  };

  const total = threads.reduce((n, t) => n + t.messages.length, 0);
  progress({ phase: 'importing', done: 0, total });
  const target = { deps, community, category };
  await writeThreads(store, target, threads, defaultLimits(store, options.batchSize), (c, done) => {
    report.topicsCreated += c.topicsCreated;
    report.postsCreated += c.postsCreated;
    report.alreadyImported += c.alreadyImported;
    report.peopleCreated += c.peopleCreated;
    progress({ phase: 'importing', done, total });
  });
  report.durationMs = Date.now() - started;
  return report;
}

async function resolveCategory(
  store: Store,
  deps: ImportDeps,
  community: Community,
  slug: string | undefined,
): Promise<Category> {
  const scope = store.community(community.id);
  if (slug) {
    const category = await scope.categories.getBySlug(slug);
    if (!category)
      throw new DomainError(
        'not_found',
        `No category "${slug}" in "${community.slug}". Omit --category to use "${DEFAULT_CATEGORY.slug}", or create the category first.`,
      );
    if (category.kind !== 'discussion')
      throw new DomainError(
        'invalid_argument',
        `"${slug}" is a knowledge base; import mail into a discussion category.`,
      );
    return category;
  }
  const existing = await scope.categories.getBySlug(DEFAULT_CATEGORY.slug);
  if (existing) return existing;
  const writes = new WriteService(
    store,
    deps.config,
    deps.events ?? new ContentEvents(),
    new AuditService(store, deps.logger),
  );
  await new CategoryService(writes.runner).create(
    systemActor('import'),
    community,
    DEFAULT_CATEGORY,
  );
  return (await scope.categories.getBySlug(DEFAULT_CATEGORY.slug))!;
}
