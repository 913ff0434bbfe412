// The runner of the write use cases (./use-case.ts, one file per kind) every face goes through
// (MCP tools, REST, web forms, the network's ask_community), step by step:
//   prepare: contract (the kind's schema) → load what the write needs, once → route (a new topic
//     in a knowledge-base category is an article) → authorize (write access, the routed kind's scope)
//   run: idempotency replay → policy (auto or queue, with a named reason the actor is shown) →
//     transaction {ledger claim, rows or the queued approval, outbox, ledger result} → events after
//     the commit → one audit entry (the caller's, when it audits the call itself).
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Category, Community } from '../../store/types.ts';
import { UniqueViolation } from '../../store/errors.ts';
import type { Actor } from '../actor.ts';
import {
  authorOf,
  requireCanWriteKind,
  requireWrite,
  roleAtLeast,
  roleOf,
} from '../authorization.ts';
import { DomainError } from '../errors.ts';
import type { ContentEvent, ContentEvents } from '../events.ts';
import { idempotencyKey as idempotencyKeyField } from '../fields.ts';
import { AuditService, errorOutcome } from '../identity/audit.ts';
import { parse } from '../validate.ts';
import { isWriteKind, WRITE_KINDS, type WriteKind } from '../vocabulary.ts';
import {
  applyCommand,
  asJson,
  asWrittenContent,
  deferredContent,
  loadCommand,
  NOUN,
  notifyCommand,
  resultTargets,
  type WrittenContent,
} from './apply.ts';
import { IdempotencyLedger } from './idempotency.ts';
import { approvalView } from './approvals.ts';
import { commandOf, type Loaded, type WriteCommand } from './use-case.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import { queuedLead, withTrust } from '../moderation/sandbox.ts';

/** Why a write applies at once or waits for a moderator: shown to the actor in the result. */
export type PolicyDecision =
  | {
      mode: 'auto';
      reason:
        | 'system'
        | 'trusted_agent'
        | 'moderator'
        | 'policy_auto'
        | 'category_auto'
        | 'trusted_member';
    }
  | {
      mode: 'approval';
      reason: `approval_policy:${WriteKind}` | `category_policy:${string}` | 'first_post';
    };

export type AppliedWrite = {
  status: 'applied';
  kind: WriteKind;
  result: WrittenContent;
  /** Why it applied at once (absent in results recorded before reasons were named). */
  reason?: PolicyDecision['reason'];
};
export type QueuedWrite = {
  status: 'pending_approval';
  kind: WriteKind;
  approval_id: string;
  message: string;
  /** Why it waits for a moderator (absent in results recorded before reasons were named). */
  reason?: PolicyDecision['reason'];
};
export type WriteResult = AppliedWrite | QueuedWrite;

/** A write checked, loaded and authorized (prepare): what run takes. */
export type PreparedWrite = {
  actor: Actor;
  community: Community;
  command: WriteCommand;
  loaded: Loaded;
  /** The payload as the actor sent it: the idempotency ledger compares requests by it. */
  sent: unknown;
};

/** The audit entry of the call around the write: the runner adds what it wrote to its targets. */
export type CallAudit = { targets: Record<string, string | undefined> };

export type WriteOptions = {
  idempotencyKey?: string | null;
  ip?: string | null;
  /** The caller audits the call (the pipeline): no entry of the runner's own, one per call. */
  audit?: CallAudit;
};

export class WriteService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    /** Receives content and approval events once the write has committed. */
    private readonly events: ContentEvents,
    private readonly audit: AuditService,
    /** A person may be refused before anything is read: their address is not confirmed yet. */
    private readonly mayPost?: (personId: string, community: Community) => Promise<void>,
  ) {}

  /** Prepares and runs one write: what every face calls (create_topic prepares first). */
  async execute(
    actor: Actor,
    community: Community,
    kind: WriteKind,
    payload: unknown,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    return this.audited(actor, community, kind, options, async () =>
      this.commit(await this.prepare(actor, community, kind, payload), options),
    );
  }

  /** Runs a write `prepare` returned (the caller could look around in between: similar topics). */
  async run(prepared: PreparedWrite, options: WriteOptions = {}): Promise<WriteResult> {
    const { actor, community, command } = prepared;
    return this.audited(actor, community, command.kind, options, () =>
      this.commit(prepared, options),
    );
  }

  /**
   * contract → load → route → authorize: the write `kind` really is (a new topic in a knowledge-base
   * category is an article, scope article:write), loaded once. Throws invalid_argument, not_found,
   * unauthorized or forbidden; nothing is written.
   */
  async prepare(
    actor: Actor,
    community: Community,
    kind: WriteKind,
    payload: unknown,
  ): Promise<PreparedWrite> {
    if (!isWriteKind(kind)) {
      throw new DomainError(
        'invalid_argument',
        `Unknown write "${String(kind)}". Use one of ${WRITE_KINDS.join(', ')}.`,
      );
    }
    requireWrite(actor, community);
    if (actor.kind === 'person') await this.mayPost?.(actor.personId, community);
    // Refused before its payload is looked at; a new topic's scope depends on its category.
    if (kind !== 'topic.create') await requireCanWriteKind(this.store, actor, community, kind);
    let command: WriteCommand;
    let loaded: Loaded;
    try {
      command = commandOf(kind, payload);
      loaded = await loadCommand(this.store, community, command);
    } catch (err) {
      // No category to route by: refused as the write it asked for before hearing what is wrong.
      if (kind === 'topic.create') await requireCanWriteKind(this.store, actor, community, kind);
      throw err;
    }
    if (command.kind === 'topic.create') {
      if (loaded.category?.kind === 'knowledge_base') command = commandOf('article.write', payload);
      await requireCanWriteKind(this.store, actor, community, command.kind);
    }
    return { actor, community, command, loaded, sent: payload };
  }

  /**
   * The policy, with its reason: the system, trusted agents and moderators always write at once. A
   * person writing through a connected app is under the policy as agents are, whatever their role.
   * A new topic or article goes by its category's own policy when the category has one, else by the
   * community's for its kind.
   */
  async decide(
    actor: Actor,
    community: Community,
    kind: WriteKind,
    category?: Category,
  ): Promise<PolicyDecision> {
    if (actor.kind === 'system') return { mode: 'auto', reason: 'system' };
    if (actor.kind === 'agent' && actor.trusted) return { mode: 'auto', reason: 'trusted_agent' };
    if (
      actor.kind === 'person' &&
      !actor.client &&
      roleAtLeast(await roleOf(this.store, actor, community), 'moderator')
    )
      return { mode: 'auto', reason: 'moderator' };
    if (category?.approvalPolicy === 'approval')
      return { mode: 'approval', reason: `category_policy:${category.slug}` };
    if (category?.approvalPolicy === 'auto') return { mode: 'auto', reason: 'category_auto' };
    return (await this.store.community(community.id).access.policies.get(kind)) === 'approval'
      ? { mode: 'approval', reason: `approval_policy:${kind}` }
      : { mode: 'auto', reason: 'policy_auto' };
  }

  /** One audit entry per call: the runner's own, or what it wrote added to the caller's. */
  private async audited(
    actor: Actor,
    community: Community,
    kind: WriteKind,
    options: WriteOptions,
    body: () => Promise<WriteResult>,
  ): Promise<WriteResult> {
    try {
      const result = await body();
      const targets = {
        write: result.kind,
        ...(result.status === 'applied'
          ? resultTargets(result.result)
          : { approval_id: result.approval_id }),
      };
      if (options.audit) Object.assign(options.audit.targets, targets);
      else
        await this.audit.record(actor, {
          communityId: community.id,
          action: result.kind,
          targets,
          outcome: result.status === 'applied' ? 'ok' : 'pending',
          ip: options.ip,
        });
      return result;
    } catch (err) {
      if (options.audit) options.audit.targets.write = kind;
      else
        await this.audit.record(actor, {
          communityId: community.id,
          action: kind,
          ip: options.ip,
          ...errorOutcome(err),
        });
      throw err;
    }
  }

  /** Replay → policy → transaction {ledger, rows or queue, outbox} → events after the commit. */
  private async commit(prepared: PreparedWrite, options: WriteOptions): Promise<WriteResult> {
    const { actor, community, command } = prepared;
    const key =
      options.idempotencyKey == null
        ? undefined
        : parse(z.object({ idempotency_key: idempotencyKeyField }), {
            idempotency_key: options.idempotencyKey,
          }).idempotency_key;
    const ledger = new IdempotencyLedger<WriteResult>(community, actor, key, {
      kind: command.kind,
      payload: prepared.sent,
    });
    const previous = await ledger.replay(this.store);
    if (previous) return fromLedger(previous);

    const category = command.kind === 'post.create' ? undefined : prepared.loaded.category;
    // Trust: sandbox limits and first posts queued for new accounts, trusted members skip the queue.
    const decision = await withTrust(
      this.store,
      prepared,
      await this.decide(actor, community, command.kind, category),
    );
    let events: ContentEvent[] = [];
    try {
      const result = await this.store.transaction(async (tx) => {
        const again = await ledger.replay(tx); // a concurrent retry may have just finished
        if (again) return fromLedger(again);
        await ledger.claim(tx);
        let out: WriteResult;
        if (decision.mode === 'auto') {
          const deferred = deferredContent(tx, this.config);
          events = deferred.events;
          const loaded = prepared.loaded;
          const written = await notifyCommand(
            { tx, config: this.config, actor, community, command, loaded },
            await applyCommand(deferred.content, actor, community, command, loaded),
          );
          out = {
            status: 'applied',
            kind: command.kind,
            result: asJson(written),
            reason: decision.reason,
          };
        } else {
          out = await this.queue(tx, prepared, decision.reason);
          events = [
            {
              type: 'approval.requested',
              communityId: community.id,
              approvalId: out.approval_id,
              kind: command.kind,
            },
          ];
        }
        await ledger.complete(tx, out);
        return out;
      });
      for (const e of events) this.events.emit(e);
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

  /** Stores the typed payload for a moderator (prepare loaded what it points at: it exists). */
  private async queue(
    tx: Store,
    { actor, community, command }: PreparedWrite,
    reason: PolicyDecision['reason'],
  ): Promise<QueuedWrite> {
    const approval = await tx.community(community.id).access.approvals.create({
      kind: command.kind,
      payload: command.payload,
      submitter: authorOf(actor),
      keyPrefix:
        actor.kind === 'agent' || actor.kind === 'person' ? (actor.keyPrefix ?? null) : null,
    });
    await tx.community(community.id).moderation.noteQueued(approval.id, reason);
    await recordWebhookEvent(tx, community.id, 'approval.requested', () => ({
      approval: approvalView(approval, community),
    }));
    const lead = queuedLead(reason);
    return {
      status: 'pending_approval',
      kind: command.kind,
      approval_id: approval.id,
      message: `${lead ? `${lead} ` : ''}Your ${NOUN[command.kind]} is queued for approval by a moderator of "${community.slug}"; nothing is published until it is approved. Follow it with get_approval and approval_id "${approval.id}": its status moves from pending to applied (published) or rejected (with a reason).`,
      reason,
    };
  }
}

/** A result as the ledger stored it (older records held a bare topic or post view). */
function fromLedger(r: WriteResult): WriteResult {
  return r.status === 'applied' ? { ...r, result: asWrittenContent(r.result) ?? {} } : r;
}
