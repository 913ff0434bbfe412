// The audit log: every write, and every call of a tool that writes — who (actor kind/id/name and
// key prefix, never a key), what (action and target ids), when, and the outcome. Reads write no
// audit row: the access log records them (who, what, the outcome).
import { z } from 'zod';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { AuditEntry, AuditOutcome } from '../../store/identity.ts';
import type { Actor } from '../actor.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../cursor.ts';
import { isDomainError } from '../errors.ts';
import { cursor, pageLimit } from '../fields.ts';
import { parse } from '../validate.ts';
import { requireCommunityAdmin } from '../authorization.ts';

export type AuditEvent = {
  communityId: string | null;
  action: string;
  targets?: Record<string, string | undefined>;
  outcome: AuditOutcome;
  errorCode?: string | null;
  ip?: string | null;
};

export function actorFields(actor: Actor) {
  switch (actor.kind) {
    case 'agent':
      return {
        actorKind: 'agent',
        actorId: actor.agentId,
        actorName: actor.name,
        keyPrefix: actor.keyPrefix ?? null,
      };
    case 'person':
      return {
        actorKind: 'person',
        actorId: actor.personId,
        actorName: actor.displayName,
        keyPrefix: actor.keyPrefix ?? null,
      };
    case 'system':
      return { actorKind: 'system', actorId: null, actorName: actor.name, keyPrefix: null };
    case 'anonymous':
      return { actorKind: 'anonymous', actorId: null, actorName: null, keyPrefix: null };
  }
}

/** The outcome of a failed call for the log: its DomainError code, else internal. */
export function errorOutcome(err: unknown): { outcome: 'error'; errorCode: string } {
  return { outcome: 'error', errorCode: isDomainError(err) ? err.code : 'internal' };
}

export class AuditService {
  constructor(
    private readonly store: Store,
    private readonly logger?: Logger,
  ) {}

  /** Never throws into the caller: a failing audit write is logged as an error. */
  async record(actor: Actor, event: AuditEvent): Promise<void> {
    const targets = Object.fromEntries(
      Object.entries(event.targets ?? {}).filter(([, v]) => typeof v === 'string'),
    ) as Record<string, string>;
    try {
      await this.store.identity.audit.record({
        communityId: event.communityId,
        ...actorFields(actor),
        action: event.action,
        targets,
        outcome: event.outcome,
        errorCode: event.errorCode ?? null,
        ip: event.ip ?? null,
      });
    } catch (err) {
      this.logger?.error(
        {
          event: 'audit.failed',
          action: event.action,
          err: err instanceof Error ? err.message : String(err),
        },
        'audit write failed',
      );
    }
  }

  /** One call through the pipeline (a tool, a resource read, …), succeeded or failed with `error`. */
  async call(
    actor: Actor,
    call: Omit<AuditEvent, 'outcome' | 'errorCode'>,
    outcome: { ok: true } | { ok: false; error: unknown },
  ): Promise<void> {
    return this.record(actor, {
      ...call,
      ...(outcome.ok ? { outcome: 'ok' as const } : errorOutcome(outcome.error)),
    });
  }

  async list(
    actor: Actor,
    community: Community,
    input: { cursor?: string | null; limit?: number } = {},
  ): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    await requireCommunityAdmin(this.store, actor, community, 'read the audit log');
    const data = parse(z.object({ cursor: cursor.nullish(), limit: pageLimit(200, 50) }), input);
    const page = await this.store.identity.audit.list(community.id, {
      after: decodeCursor('audit', data.cursor, CURSOR_SHAPES.byTime),
      limit: data.limit,
    });
    return { entries: page.items, nextCursor: page.next ? encodeCursor('audit', page.next) : null };
  }
}
