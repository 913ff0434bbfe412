// The write path every transport (MCP tools, REST, web forms, network ask_community) goes through:
//   authorize (write access + scope) → idempotency lookup → approval policy
//   (auto → apply through the content service | approval → queue the full payload) → audit →
//   idempotency record (same transaction as the write: a retry never writes twice).
import { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import { UniqueViolation } from '../store/errors.ts';
import { isUuid } from '../store/ids.ts';
import { WRITE_KINDS, type WriteKind } from '../store/identity.ts';
import type { Actor } from './actor.ts';
import { authorOf, requireWrite } from './access.ts';
import { ContentService } from './content.ts';
import { DomainError } from './errors.ts';
import { ContentEvents, type ContentEvent } from './events.ts';
import { bodySchema, parse, tagsSchema, titleSchema } from './validate.ts';
import { AuditService, errorOutcome } from './identity/audit.ts';
import { roleAtLeast, roleOf, requireScope, SCOPE_FOR_KIND } from './identity/permissions.ts';
import { canonicalJson, sha256Hex } from './identity/secrets.ts';

export { WRITE_KINDS, type WriteKind };

export type AppliedWrite = { status: 'applied'; kind: WriteKind; result: unknown };
export type QueuedWrite = { status: 'pending_approval'; kind: WriteKind; approval_id: string; message: string };
export type WriteResult = AppliedWrite | QueuedWrite;

export type WriteOptions = { idempotencyKey?: string | null; ip?: string | null };

const ref = z.string().trim().min(1, 'must not be empty').max(200);
/** Shape checks for a write that goes to the queue (the content service validates fully on apply). */
const QUEUE_SCHEMAS: Record<WriteKind, z.ZodType> = {
  'topic.create': z.object({ category: ref, title: titleSchema, body: bodySchema, tags: tagsSchema }),
  'post.create': z.object({ topic: ref, body: bodySchema }),
  'solution.mark': z.object({ topic: ref, post: ref }),
  'article.write': z.object({ category: ref, slug: z.string().trim().optional(), title: titleSchema, body: bodySchema, tags: tagsSchema.optional() }),
};

const NOUN: Record<WriteKind, string> = {
  'topic.create': 'new topic',
  'post.create': 'reply',
  'solution.mark': 'accepted answer',
  'article.write': 'article',
};

const idempotencyKeySchema = z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** Applies one write as `actor` through the content service (bound to the caller's transaction). */
export async function applyWrite(content: ContentService, actor: Actor, community: Community, kind: WriteKind, payload: unknown): Promise<unknown> {
  const input = payload as never;
  switch (kind) {
    case 'topic.create':
      return content.createTopic(actor, community, input);
    case 'post.create':
      return content.reply(actor, community, input);
    case 'solution.mark':
      return content.markSolution(actor, community, input);
    case 'article.write':
      return content.upsertArticle(actor, community, input);
  }
}

/** Ids worth keeping in the audit log from a write's result. */
export function resultTargets(result: unknown): Record<string, string | undefined> {
  const r = (result ?? {}) as Record<string, any>;
  const topic = r.topic ?? (r.topicId ? r : undefined);
  return {
    topic_id: topic?.id ?? r.topicId ?? undefined,
    post_id: r.post?.id ?? (r.topicId && r.position ? r.id : undefined),
  };
}

export function idempotencyActor(actor: Actor): string {
  switch (actor.kind) {
    case 'agent':
      return `agent:${actor.agentId}`;
    case 'person':
      return `person:${actor.personId}`;
    case 'system':
      return `system:${actor.name}`;
    case 'anonymous':
      return 'anonymous';
  }
}

/** What the content service returned, as JSON: the first answer and every replay look the same. */
function asJson<T>(value: T): T {
  return value === undefined ? (null as T) : JSON.parse(JSON.stringify(value));
}

/** A content service on `tx` whose events are held back until the caller's commit. */
export function deferredContent(tx: Store, config: Config): { content: ContentService; events: ContentEvent[] } {
  const events: ContentEvent[] = [];
  const bus = new ContentEvents();
  bus.subscribe((e) => events.push(e));
  return { content: new ContentService(tx, config, bus), events };
}

export class WriteService {
  readonly audit: AuditService;

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    /** Its event bus receives content and approval events once the write has committed. */
    private readonly content: ContentService,
    logger?: Logger,
  ) {
    this.audit = new AuditService(store, logger);
  }

  async execute(actor: Actor, community: Community, kind: WriteKind, payload: unknown, options: WriteOptions = {}): Promise<WriteResult> {
    try {
      const result = await this.run(actor, community, kind, payload, options);
      const targets = result.status === 'applied' ? resultTargets(result.result) : { approval_id: result.approval_id };
      await this.audit.record(actor, {
        communityId: community.id,
        action: kind,
        targets,
        outcome: result.status === 'applied' ? 'ok' : 'pending',
        ip: options.ip,
      });
      return result;
    } catch (err) {
      await this.audit.record(actor, { communityId: community.id, action: kind, ip: options.ip, ...errorOutcome(err) });
      throw err;
    }
  }

  private async run(actor: Actor, community: Community, kind: WriteKind, payload: unknown, options: WriteOptions): Promise<WriteResult> {
    if (!(WRITE_KINDS as readonly string[]).includes(kind)) {
      throw new DomainError('invalid_argument', `Unknown write "${String(kind)}". Use one of ${WRITE_KINDS.join(', ')}.`);
    }
    requireWrite(actor, community);
    requireScope(actor, SCOPE_FOR_KIND[kind]);
    const key = options.idempotencyKey == null ? undefined : parse(idempotencyKeySchema, options.idempotencyKey);
    const who = idempotencyActor(actor);
    const requestHash = sha256Hex(canonicalJson({ kind, payload }));

    // Inside the transaction it must read through `tx` (SQLite has one connection, held by the transaction).
    const replay = async (store: Store = this.store): Promise<WriteResult | undefined> => {
      if (!key) return undefined;
      const record = await store.community(community.id).access.idempotency.find(who, key);
      if (!record) return undefined;
      if (record.requestHash !== requestHash) {
        throw new DomainError(
          'conflict',
          `The idempotency key "${key}" was already used for a different request. Send a new key for a new write, or resend the original request unchanged to get its result.`,
        );
      }
      return record.result as WriteResult;
    };

    const previous = await replay();
    if (previous) return previous;

    const mode = await this.modeFor(actor, community, kind);
    let events: ContentEvent[] = [];
    try {
      const result = await this.store.transaction(async (tx) => {
        const again = await replay(tx); // under the transaction: a concurrent retry may have just finished
        if (again) return again;
        // Claim the key first: a concurrent retry's insert waits on this row (PostgreSQL) and fails
        // once we commit, so only one of them ever applies the write.
        if (key) await tx.community(community.id).access.idempotency.insert({ actor: who, key, requestHash, result: null });
        let out: WriteResult;
        if (mode === 'auto') {
          const deferred = deferredContent(tx, this.config);
          events = deferred.events;
          out = { status: 'applied', kind, result: asJson(await applyWrite(deferred.content, actor, community, kind, payload)) };
        } else {
          const data = parse(QUEUE_SCHEMAS[kind], payload);
          await this.checkTargets(tx, community, kind, data as Record<string, string>);
          const approval = await tx.community(community.id).access.approvals.create({
            kind,
            payload: data,
            submitter: authorOf(actor),
            keyPrefix: actor.kind === 'agent' || actor.kind === 'person' ? actor.keyPrefix ?? null : null,
          });
          events = [{ type: 'approval.requested', communityId: community.id, approvalId: approval.id, kind }];
          out = {
            status: 'pending_approval',
            kind,
            approval_id: approval.id,
            message: `Your ${NOUN[kind]} is queued for approval by a moderator of "${community.slug}"; nothing is published until it is approved. Follow it with get_approval and approval_id "${approval.id}": its status moves from pending to applied (published) or rejected (with a reason).`,
          };
        }
        if (key) await tx.community(community.id).access.idempotency.setResult(who, key, out);
        return out;
      });
      for (const e of events) this.content.events.emit(e);
      return result;
    } catch (err) {
      // Two retries raced on PostgreSQL: the other one committed first; ours was rolled back.
      if (key && (err instanceof UniqueViolation || (err instanceof DomainError && err.code === 'conflict'))) {
        const winner = await replay();
        if (winner) return winner;
      }
      throw err;
    }
  }

  /** auto or approval: the system, trusted agents and moderators always write at once. */
  async modeFor(actor: Actor, community: Community, kind: WriteKind): Promise<'auto' | 'approval'> {
    if (actor.kind === 'system') return 'auto';
    if (actor.kind === 'agent' && actor.trusted) return 'auto';
    if (actor.kind === 'person' && roleAtLeast(await roleOf(this.store, actor, community), 'moderator')) return 'auto';
    return (await this.store.community(community.id).access.policies.get(kind)) ?? 'auto';
  }

  /** A queued write must at least point at things that exist (the apply re-checks everything). */
  private async checkTargets(tx: Store, community: Community, kind: WriteKind, data: Record<string, string>): Promise<void> {
    const scope = tx.community(community.id);
    if (data.category !== undefined) {
      const c = isUuid(data.category) ? await scope.categories.getById(data.category) : await scope.categories.getBySlug(data.category.toLowerCase());
      if (!c) throw new DomainError('not_found', `No category "${data.category}" in "${community.slug}". Call list_categories for the valid slugs.`);
      if (kind === 'topic.create' && c.kind === 'knowledge_base') {
        throw new DomainError('invalid_argument', `"${c.slug}" is a knowledge base: write an article there with upsert_article, or pick a discussion category.`);
      }
    }
    if (data.topic !== undefined) {
      const t = isUuid(data.topic) ? await scope.topics.getById(data.topic) : await scope.topics.getBySlug(data.topic.toLowerCase());
      if (!t) throw new DomainError('not_found', `No topic "${data.topic}" in this community. Use a topic id or slug from list_topics or search.`);
    }
  }
}
