// `hamlet import mail`: messages → threads → topics and posts of one community, with the original
// dates, authors as imported people (display name only; the address is kept nowhere, only a hash
// to recognise the same sender again).
//
// Idempotent and resumable: every imported message is recorded by key (Message-ID, or a content
// hash) in the same transaction as its post, and whole threads are committed together in batches.
// A re-run skips what is recorded; after a crash (even SIGKILL) a re-run finishes the remaining
// threads, and the result equals that of an uninterrupted run because threading is deterministic.
import { createHash } from 'node:crypto';
import type { Store } from '../../store/repositories.ts';
import type { Category, Community } from '../../store/types.ts';
import { systemActor } from '../../domain/actor.ts';
import type { ContentService } from '../../domain/content.ts';
import { LIMITS } from '../../domain/fields.ts';
import { DomainError } from '../../domain/errors.ts';
import { cleanBody, cleanSubject } from './clean.ts';
import { parseMessage, type MailMessage } from './message.ts';
import { readMessages, type RawMessage } from './sources.ts';
import { threadMessages, type Thread } from './thread.ts';

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
  /** Messages per transaction (whole threads are never split across transactions). */
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

/** `content` is the process's content service: its events (search, notifications) see the import. */
export async function importMail(
  store: Store,
  content: ContentService,
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
  const category = await resolveCategory(store, content, community, options.categorySlug);

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
  const batchSize = options.batchSize ?? 200;
  let done = 0;
  let batch: Thread[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const counts = await store.transaction((tx) =>
      importBatch(tx, content.withStore(tx), community, category, batch),
    );
    report.topicsCreated += counts.topicsCreated;
    report.postsCreated += counts.postsCreated;
    report.alreadyImported += counts.alreadyImported;
    report.peopleCreated += counts.peopleCreated;
    done += batch.reduce((n, t) => n + t.messages.length, 0);
    progress({ phase: 'importing', done, total });
    batch = [];
  };
  progress({ phase: 'importing', done: 0, total });
  let pending = 0;
  for (const thread of threads) {
    batch.push(thread);
    pending += thread.messages.length;
    if (pending >= batchSize) {
      await flush();
      pending = 0;
    }
  }
  await flush();
  report.durationMs = Date.now() - started;
  return report;
}

async function resolveCategory(
  store: Store,
  content: ContentService,
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
  await content.createCategory(systemActor('import'), community, DEFAULT_CATEGORY);
  return (await scope.categories.getBySlug(DEFAULT_CATEGORY.slug))!;
}

type BatchCounts = {
  topicsCreated: number;
  postsCreated: number;
  alreadyImported: number;
  peopleCreated: number;
};

async function importBatch(
  tx: Store,
  content: ContentService,
  community: Community,
  category: Category,
  threads: Thread[],
): Promise<BatchCounts> {
  const scope = tx.community(community.id);
  const counts: BatchCounts = {
    topicsCreated: 0,
    postsCreated: 0,
    alreadyImported: 0,
    peopleCreated: 0,
  };
  const actor = systemActor('mail import');
  const keys = threads.flatMap((t) => [...t.messages.map((m) => m.key), ...t.externalParents]);
  const known = new Map((await scope.imports.findMessages(keys)).map((r) => [r.messageKey, r]));

  for (const thread of threads) {
    const pending = thread.messages.filter((m) => !known.has(m.key));
    counts.alreadyImported += thread.messages.length - pending.length;
    if (pending.length === 0) continue;
    // Continue an existing topic: a member imported earlier (input grew) or a parent from another import.
    let topicId =
      thread.messages.map((m) => known.get(m.key)?.topicId).find((id) => id !== undefined) ??
      thread.externalParents.map((p) => known.get(p)?.topicId).find((id) => id !== undefined);
    const fallbackDate = pending.find((m) => m.date)?.date ?? new Date().toISOString();
    for (const message of pending) {
      const person = await importedPerson(tx, community, message, counts);
      const author = { personId: person.id, displayName: person.name };
      const createdAt = message.date ?? fallbackDate;
      const body = fit(
        cleanBody(message.text),
        topicId === undefined ? LIMITS.questionBody : LIMITS.replyBody,
      );
      let postId: string;
      if (topicId === undefined) {
        const created = await content.createTopic(actor, community, {
          category: category.id,
          title: titleOf(message.subject),
          body,
          tags: message.listId ? [tagOf(message.listId)].filter((t) => t.length > 0) : [],
          createdAt,
          author,
        });
        topicId = created.topic.id;
        postId = created.post.id;
        counts.topicsCreated++;
      } else {
        postId = (
          await content.reply(actor, community, { topic: topicId, body, createdAt, author })
        ).id;
      }
      counts.postsCreated++;
      await scope.imports.recordMessage({ messageKey: message.key, topicId, postId });
      known.set(message.key, { messageKey: message.key, topicId, postId, createdAt });
    }
  }
  return counts;
}

/** The imported person for a sender, created once per community (keyed by a hash, never the address). */
async function importedPerson(
  tx: Store,
  community: Community,
  message: MailMessage,
  counts: BatchCounts,
): Promise<{ id: string; name: string }> {
  const identity = message.from.address
    ? `mail:${message.from.address}`
    : `name:${message.from.name.toLowerCase()}`;
  const hash = createHash('sha256').update(identity).digest('hex');
  const scope = tx.community(community.id);
  const existing = await scope.imports.findPerson(hash);
  if (existing) {
    const person = await tx.people.getById(existing);
    if (person) return { id: person.id, name: person.displayName };
  }
  const person = await tx.people.create({
    displayName: message.from.name.slice(0, 200),
    createdAt: message.date ?? undefined,
  });
  await scope.imports.recordPerson(hash, person.id);
  counts.peopleCreated++;
  return { id: person.id, name: person.displayName };
}

/** Subjects become titles within the title limits: a short one is named as a mailing-list subject. */
function titleOf(subject: string): string {
  let title = cleanSubject(subject) || '(no subject)';
  if (title.length < LIMITS.title.min) title = `Mailing list: ${title}`;
  return truncate(title, LIMITS.title.max);
}

/** Message text within the limits every post keeps: too short is said to be so, too long is cut. */
function fit(text: string, limits: { min: number; max: number }): string {
  if (!text) return '(This message had no text.)';
  return truncate(text.length < limits.min ? `${text} (short message)` : text, limits.max);
}

function tagOf(listId: string): string {
  return listId
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
