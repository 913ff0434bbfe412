// An answer's confidence kept on its signals row: recomputed from all of the post's outcome reports
// (a post has few: one per reporter) by the domain's rule, in the report's transaction.
import type { Kysely } from 'kysely';
import type { Confidence, ConfidenceRule, Environment, VotesDatabase } from '../votes.ts';
import { toIso, toIsoOrNull } from '../time.ts';

/** A JSON column's value, or `fallback` when it is empty or not JSON. */
export function parsed<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Recomputes the post's confidence from all its reports (a post has few: one per reporter). */
export async function weighOutcomes(
  db: Kysely<VotesDatabase>,
  communityId: string,
  postId: string,
  rule: ConfidenceRule,
): Promise<void> {
  const [reports, signals] = await Promise.all([
    db
      .selectFrom('post_outcomes')
      .select(['worked', 'weight', 'trusted', 'owner', 'actor_kind', 'actor_id'])
      .select(['environment', 'updated_at'])
      .where('community_id', '=', communityId)
      .where('post_id', '=', postId)
      .execute(),
    db
      .selectFrom('post_signals')
      .select('dispute_cleared_at')
      .where('community_id', '=', communityId)
      .where('post_id', '=', postId)
      .executeTakeFirst(),
  ]);
  const c: Confidence = rule(
    reports.map((r) => ({
      worked: Number(r.worked) === 1,
      weight: Number(r.weight),
      trusted: Number(r.trusted) === 1,
      owner: r.owner ?? `${r.actor_kind}:${r.actor_id}`,
      environment: parsed<Environment | null>(r.environment, null),
      updatedAt: toIso(r.updated_at),
    })),
    toIsoOrNull(signals?.dispute_cleared_at ?? null),
  );
  await db
    .updateTable('post_signals')
    .set({
      worked_weight: c.workedWeight,
      failed_weight: c.failedWeight,
      disputed: c.disputed ? 1 : 0,
      worked_in: c.workedIn.length ? JSON.stringify(c.workedIn) : null,
    })
    .where('community_id', '=', communityId)
    .where('post_id', '=', postId)
    .execute();
}
