// The write path every face (MCP tools, REST, web forms, the network's ask_community) goes through:
//   route (a new topic in a knowledge-base category is an article) → authorize (write access and the
//   routed kind's scope) → idempotency replay → approval policy (auto: apply through the content
//   service | approval: queue the payload) → idempotency record, in the same transaction as the
//   write (a retry never writes twice) → events after the commit → audit.
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Category, Community } from '../../store/types.ts';
import { UniqueViolation } from '../../store/errors.ts';
import { isUuid } from '../../store/ids.ts';
import type { Actor } from '../actor.ts';
import {
  authorOf,
  requireCanWriteKind,
  requireWrite,
  roleAtLeast,
  roleOf,
} from '../authorization.ts';
import { WRITE_INPUTS, type ContentService } from '../content.ts';
import { DomainError } from '../errors.ts';
import type { ContentEvent } from '../events.ts';
import { idempotencyKey as idempotencyKeyField } from '../fields.ts';
import { AuditService, errorOutcome } from '../identity/audit.ts';
import { parse } from '../validate.ts';
import { isWriteKind, WRITE_KINDS, type PolicyMode, type WriteKind } from '../vocabulary.ts';
import {
  applyWrite,
  asJson,
  asWrittenContent,
  deferredContent,
  resultTargets,
  type WrittenContent,
} from './apply.ts';
import { IdempotencyLedger } from './idempotency.ts';
import { approvalView } from './approvals.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';

export type AppliedWrite = { status: 'applied'; kind: WriteKind; result: WrittenContent };
export type QueuedWrite = {
  status: 'pending_approval';
  kind: WriteKind;
  approval_id: string;
  message: string;
};
export type WriteResult = AppliedWrite | QueuedWrite;

export type WriteOptions = { idempotencyKey?: string | null; ip?: string | null };

const NOUN: Record<WriteKind, string> = {
  'topic.create': 'new topic',
  'post.create': 'reply',
  'solution.mark': 'accepted answer',
  'article.write': 'article',
};

export class WriteService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    /** Its event bus receives content and approval events once the write has committed. */
    private readonly content: ContentService,
    private readonly audit: AuditService,
  ) {}

  /**
   * The write `kind` really is, and whether `actor` may make it: a new topic in a knowledge-base
   * category is an article (scope article:write). Throws unauthorized/forbidden otherwise.
   */
  async authorize(
    actor: Actor,
    community: Community,
    kind: WriteKind,
    payload: unknown,
  ): Promise<WriteKind> {
    if (!isWriteKind(kind)) {
      throw new DomainError(
        'invalid_argument',
        `Unknown write "${String(kind)}". Use one of ${WRITE_KINDS.join(', ')}.`,
      );
    }
    requireWrite(actor, community);
    const routed = await this.route(this.store, community, kind, payload);
    await requireCanWriteKind(this.store, actor, community, routed);
    return routed;
  }

  async execute(
    actor: Actor,
    community: Community,
    kind: WriteKind,
    payload: unknown,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    let routed = kind;
    try {
      routed = await this.authorize(actor, community, kind, payload);
      const result = await this.run(actor, community, routed, payload, options);
      const targets =
        result.status === 'applied'
          ? resultTargets(result.result)
          : { approval_id: result.approval_id };
      await this.audit.record(actor, {
        communityId: community.id,
        action: routed,
        targets,
        outcome: result.status === 'applied' ? 'ok' : 'pending',
        ip: options.ip,
      });
      return result;
    } catch (err) {
      await this.audit.record(actor, {
        communityId: community.id,
        action: routed,
        ip: options.ip,
        ...errorOutcome(err),
      });
      throw err;
    }
  }

  /**
   * auto or approval: the system, trusted agents and moderators always write at once. A person
   * writing through a connected app is under the policy as agents are, whatever their role.
   */
  async modeFor(actor: Actor, community: Community, kind: WriteKind): Promise<PolicyMode> {
    if (actor.kind === 'system') return 'auto';
    if (actor.kind === 'agent' && actor.trusted) return 'auto';
    if (
      actor.kind === 'person' &&
      !actor.client &&
      roleAtLeast(await roleOf(this.store, actor, community), 'moderator')
    )
      return 'auto';
    return (await this.store.community(community.id).access.policies.get(kind)) === 'approval'
      ? 'approval'
      : 'auto';
  }

  private async run(
    actor: Actor,
    community: Community,
    kind: WriteKind,
    payload: unknown,
    options: WriteOptions,
  ): Promise<WriteResult> {
    const key =
      options.idempotencyKey == null
        ? undefined
        : parse(z.object({ idempotency_key: idempotencyKeyField }), {
            idempotency_key: options.idempotencyKey,
          }).idempotency_key;
    const ledger = new IdempotencyLedger<WriteResult>(community, actor, key, { kind, payload });
    const previous = await ledger.replay(this.store);
    if (previous) return fromLedger(previous);

    const mode = await this.modeFor(actor, community, kind);
    let events: ContentEvent[] = [];
    try {
      const result = await this.store.transaction(async (tx) => {
        const again = await ledger.replay(tx); // a concurrent retry may have just finished
        if (again) return fromLedger(again);
        await ledger.claim(tx);
        let out: WriteResult;
        if (mode === 'auto') {
          const deferred = deferredContent(tx, this.config);
          events = deferred.events;
          out = {
            status: 'applied',
            kind,
            result: asJson(await applyWrite(deferred.content, actor, community, kind, payload)),
          };
        } else {
          out = await this.queue(tx, actor, community, kind, payload);
          events = [
            {
              type: 'approval.requested',
              communityId: community.id,
              approvalId: out.approval_id,
              kind,
            },
          ];
        }
        await ledger.complete(tx, out);
        return out;
      });
      for (const e of events) this.content.events.emit(e);
      return result;
    } catch (err) {
      // Two retries raced (PostgreSQL): the other one committed first and ours was rolled back.
      const winner =
        err instanceof UniqueViolation || (err instanceof DomainError && err.code === 'conflict')
          ? await ledger.replay(this.store)
          : undefined;
      if (winner) return fromLedger(winner);
      throw err;
    }
  }

  /** Stores the write for a moderator; it must at least point at things that exist. */
  private async queue(
    tx: Store,
    actor: Actor,
    community: Community,
    kind: WriteKind,
    payload: unknown,
  ): Promise<QueuedWrite> {
    const data = parse(WRITE_INPUTS[kind], payload) as Record<string, unknown>;
    const scope = tx.community(community.id);
    if (typeof data.category === 'string') await this.findCategory(tx, community, data.category);
    if (typeof data.topic === 'string') {
      const t = isUuid(data.topic)
        ? await scope.topics.getById(data.topic)
        : await scope.topics.getBySlug(data.topic.toLowerCase());
      if (!t)
        throw new DomainError(
          'not_found',
          `No topic "${data.topic}" in this community. Use a topic id or slug from list_topics or search.`,
        );
    }
    const approval = await scope.access.approvals.create({
      kind,
      payload: data,
      submitter: authorOf(actor),
      keyPrefix:
        actor.kind === 'agent' || actor.kind === 'person' ? (actor.keyPrefix ?? null) : null,
    });
    await recordWebhookEvent(tx, community.id, 'approval.requested', () => ({
      approval: approvalView(approval, community),
    }));
    return {
      status: 'pending_approval',
      kind,
      approval_id: approval.id,
      message: `Your ${NOUN[kind]} is queued for approval by a moderator of "${community.slug}"; nothing is published until it is approved. Follow it with get_approval and approval_id "${approval.id}": its status moves from pending to applied (published) or rejected (with a reason).`,
    };
  }

  /** A new topic in a knowledge-base category (by slug or id) is an article. */
  private async route(
    store: Store,
    community: Community,
    kind: WriteKind,
    payload: unknown,
  ): Promise<WriteKind> {
    if (kind !== 'topic.create') return kind;
    const category =
      typeof payload === 'object' && payload !== null
        ? (payload as { category?: unknown }).category
        : undefined;
    if (typeof category !== 'string' || !category.trim()) return kind;
    const found = await this.findCategory(store, community, category.trim(), { missingOk: true });
    return found?.kind === 'knowledge_base' ? 'article.write' : kind;
  }

  private async findCategory(
    store: Store,
    community: Community,
    ref: string,
    options: { missingOk?: boolean } = {},
  ): Promise<Category | undefined> {
    const scope = store.community(community.id);
    const c = isUuid(ref)
      ? await scope.categories.getById(ref)
      : await scope.categories.getBySlug(ref.toLowerCase());
    if (!c && !options.missingOk)
      throw new DomainError(
        'not_found',
        `No category "${ref}" in "${community.slug}". Call list_categories for the valid slugs.`,
      );
    return c;
  }
}

/** A result as the ledger stored it (older records held a bare topic or post view). */
function fromLedger(r: WriteResult): WriteResult {
  return r.status === 'applied' ? { ...r, result: asWrittenContent(r.result) ?? {} } : r;
}
