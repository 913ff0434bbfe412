// The shape of an administrator's write to the community's structure (its categories: one file per
// kind, category-create.ts, category-update.ts, category-delete.ts) and its runner. The steps, in
// order: policy (the one administrator rule, src/domain/authorization.ts, refused with what to do) →
// contract (the payload's schema) → transaction {load what the write needs, rows} → one audit entry
// (the caller's when it audits the call itself: the pipeline). Nothing is queued for approval and
// nothing replays: these writes change how a community is organised, not its content.
import type { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import type { AuditService } from '../identity/audit.ts';
import { errorOutcome } from '../identity/audit.ts';
import { parse } from '../validate.ts';
import type { CallAudit } from './write-service.ts';

export type AdminWrite<C extends z.ZodType, L, R> = {
  /** The audit action ("category.create"). */
  action: string;
  /** What the refusal says a non-administrator may not do ("create categories"). */
  what: string;
  contract: C;
  /** Reads what the write needs inside its transaction (not_found naming where to find valid ones). */
  load(tx: Store, community: Community, input: z.output<C>): Promise<L>;
  /** Writes its rows; returns the result and the ids worth keeping in the audit entry. */
  apply(
    tx: Store,
    community: Community,
    input: z.output<C>,
    loaded: L,
  ): Promise<{ result: R; targets: Record<string, string | undefined> }>;
};

export type AdminWriteOptions = { ip?: string | null; audit?: CallAudit };

/** Runs one administrator's write: policy → contract → transaction {load, rows} → audit. */
export async function runAdminWrite<C extends z.ZodType, L, R>(
  deps: { store: Store; audit: AuditService },
  write: AdminWrite<C, L, R>,
  actor: Actor,
  community: Community,
  payload: unknown,
  options: AdminWriteOptions = {},
): Promise<R> {
  const record = (event: Parameters<AuditService['record']>[1]) =>
    options.audit ? undefined : deps.audit.record(actor, event);
  try {
    await requireCommunityAdmin(deps.store, actor, community, write.what);
    const input = parse(write.contract, payload);
    const { result, targets } = await deps.store.transaction(async (tx) =>
      write.apply(tx, community, input, await write.load(tx, community, input)),
    );
    if (options.audit) Object.assign(options.audit.targets, targets);
    await record({
      communityId: community.id,
      action: write.action,
      targets,
      outcome: 'ok',
      ip: options.ip,
    });
    return result;
  } catch (err) {
    await record({
      communityId: community.id,
      action: write.action,
      ip: options.ip,
      ...errorOutcome(err),
    });
    throw err;
  }
}
