// Writing threaded mail as topics and posts in short transactions: at most `maxPosts` new posts and
// about `maxMs` per transaction, a long thread spanning as many as it needs, and a pause between two
// transactions in which the other writers on the database (a live server on the same SQLite file)
// take the write lock. Every message is recorded by key in the transaction that writes its post, so
// a run cut anywhere (even by SIGKILL) resumes where it stopped: a re-run skips recorded messages
// and continues the thread's topic. A transaction that fails ends the run (nothing is retried).
//
// Each message is one write through the write runner, bound to the batch's transaction, as the
// system with the message's author and date: history, which no policy queues and nobody is
// notified of. The runner's events are held until the batch commits, then published.
import { createHash } from 'node:crypto';
import type { Config } from '../../config/config.ts';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Category, Community } from '../../store/types.ts';
import { lockGapMs } from '../../store/sqlite-lock.ts';
import { systemActor } from '../../domain/actor.ts';
import { ContentEvents, type ContentEvent } from '../../domain/events.ts';
import { LIMITS } from '../../domain/fields.ts';
import { AuditService } from '../../domain/identity/audit.ts';
import { writeApplied } from '../../domain/writes/applied.ts';
import { WriteService } from '../../domain/writes/write-service.ts';
import { cleanBody, cleanSubject } from './clean.ts';
import type { MailMessage } from './message.ts';
import type { Thread } from './thread.ts';

export type WriteLimits = {
  /** New posts per transaction. */
  maxPosts: number;
  /** A transaction takes no new message after this long (ms). */
  maxMs: number;
  /** Pause between transactions (ms). */
  pauseMs: number;
};

export type WriteCounts = {
  topicsCreated: number;
  postsCreated: number;
  alreadyImported: number;
  peopleCreated: number;
};

/** SQLite has one write lock per file: pause long enough for every waiting writer to get it once. */
export function defaultLimits(store: Store, maxPosts = 200): WriteLimits {
  return { maxPosts, maxMs: 200, pauseMs: store.dialect === 'sqlite' ? lockGapMs() : 0 };
}

/** What the run knows of a thread once it first reached it: its topic and its recorded messages. */
type ThreadState = { topicId: string | undefined; recorded: Set<string>; fallbackDate: string };

/** What the import writes with: the configuration, and the events that hear each committed batch. */
export type ImportDeps = { config: Config; events?: ContentEvents; logger?: Logger };

export type WriteTarget = { deps: ImportDeps; community: Community; category: Category };

/** The write runner on the batch's transaction: its writes join it, its events wait in `held`. */
function writesOn(tx: Store, deps: ImportDeps, held: ContentEvent[]): WriteService {
  const events = new ContentEvents();
  events.subscribe((e) => held.push(e));
  return new WriteService(tx, deps.config, events, new AuditService(tx, deps.logger));
}

/**
 * Writes `threads` in order; `committed(counts, messagesDone)` follows each commit, with the counts
 * of that transaction and the number of messages (written or skipped) done so far.
 */
export async function writeThreads(
  store: Store,
  target: WriteTarget,
  threads: Thread[],
  limits: WriteLimits,
  committed: (counts: WriteCounts, messagesDone: number) => void,
): Promise<void> {
  const states = new Map<Thread, ThreadState>();
  let cursor = { thread: 0, message: 0 };
  let done = 0;
  while (cursor.thread < threads.length) {
    const start = cursor;
    const result = await store.transaction(async (tx) => {
      const counts = zero();
      const held: ContentEvent[] = [];
      const writes = writesOn(tx, target.deps, held);
      const until = Date.now() + limits.maxMs;
      const at = { ...start };
      let steps = 0;
      do {
        const thread = threads[at.thread]!;
        if (!states.has(thread)) await loadStates(tx, target.community, threads, at.thread, states);
        const state = states.get(thread)!;
        const message = thread.messages[at.message]!;
        if (state.recorded.has(message.key)) counts.alreadyImported++;
        else await writeMessage(tx, writes, target, state, message, counts);
        steps++;
        if (++at.message === thread.messages.length) {
          states.delete(thread);
          at.thread++;
          at.message = 0;
        }
      } while (
        at.thread < threads.length &&
        counts.postsCreated < limits.maxPosts &&
        Date.now() < until
      );
      return { counts, at, steps, held };
    });
    for (const e of result.held) target.deps.events?.emit(e);
    cursor = result.at;
    done += result.steps;
    committed(result.counts, done);
    if (cursor.thread < threads.length && limits.pauseMs > 0)
      await new Promise<void>((resolve) => setTimeout(resolve, limits.pauseMs));
  }
}

function zero(): WriteCounts {
  return { topicsCreated: 0, postsCreated: 0, alreadyImported: 0, peopleCreated: 0 };
}

/** Looks up the recorded messages of the thread at `from` and of those after it, ~200 messages' worth. */
async function loadStates(
  tx: Store,
  community: Community,
  threads: Thread[],
  from: number,
  states: Map<Thread, ThreadState>,
): Promise<void> {
  const batch: Thread[] = [];
  let messages = 0;
  for (let i = from; i < threads.length && (batch.length === 0 || messages < 200); i++) {
    if (states.has(threads[i]!)) continue;
    batch.push(threads[i]!);
    messages += threads[i]!.messages.length;
  }
  const keys = batch.flatMap((t) => [...t.messages.map((m) => m.key), ...t.externalParents]);
  const found = await tx.community(community.id).imports.findMessages(keys);
  const known = new Map(found.map((r) => [r.messageKey, r.topicId]));
  for (const thread of batch) {
    // Continue an existing topic: a member imported earlier (input grew, or a run was cut short) or
    // a parent from another import.
    const topicId =
      thread.messages.map((m) => known.get(m.key)).find((id) => id !== undefined) ??
      thread.externalParents.map((p) => known.get(p)).find((id) => id !== undefined);
    states.set(thread, {
      topicId,
      recorded: new Set(thread.messages.map((m) => m.key).filter((k) => known.has(k))),
      // A message without a date takes the thread's first date, whichever run writes it.
      fallbackDate: thread.messages.find((m) => m.date)?.date ?? new Date().toISOString(),
    });
  }
}

async function writeMessage(
  tx: Store,
  writes: WriteService,
  target: WriteTarget,
  state: ThreadState,
  message: MailMessage,
  counts: WriteCounts,
): Promise<void> {
  const { community, category } = target;
  const actor = systemActor('mail import');
  const person = await importedPerson(tx, community, message, counts);
  const author = { personId: person.id, displayName: person.name };
  const createdAt = message.date ?? state.fallbackDate;
  const existing = state.topicId;
  const body = fit(
    cleanBody(message.text),
    existing === undefined ? LIMITS.questionBody : LIMITS.replyBody,
  );
  const { topicId, postId } =
    existing === undefined
      ? await writeApplied(writes, actor, community, 'topic.create', {
          category: category.id,
          title: titleOf(message.subject),
          body,
          tags: message.listId ? [tagOf(message.listId)].filter((t) => t.length > 0) : [],
          createdAt,
          author,
        }).then((created) => ({ topicId: created.topic.id, postId: created.post.id }))
      : await writeApplied(writes, actor, community, 'post.create', {
          topic: existing,
          body,
          createdAt,
          author,
        }).then(({ post }) => ({ topicId: existing, postId: post.id }));
  if (existing === undefined) counts.topicsCreated++;
  counts.postsCreated++;
  await tx
    .community(community.id)
    .imports.recordMessage({ messageKey: message.key, topicId, postId });
  state.topicId = topicId;
  state.recorded.add(message.key);
}

/** The imported person for a sender, created once per community (keyed by a hash, never the address). */
async function importedPerson(
  tx: Store,
  community: Community,
  message: MailMessage,
  counts: WriteCounts,
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
