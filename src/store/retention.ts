// The rows nobody needs once they are old: idempotency records (a client retries within hours, not
// days), web sessions past their expiry or revoked, OAuth authorization codes past their expiry
// (they live minutes), and, only when the operator sets a retention, audit log entries.
// Each call deletes one bounded batch; the sweep (../operations/retention-sweep.ts) repeats it.

export type RetentionKind = 'idempotency' | 'webSessions' | 'oauthCodes' | 'audit';

export interface RetentionRepository {
  /**
   * Deletes at most `limit` rows of `kind` older than `before` (ISO time: created for idempotency
   * records, occurred for audit entries, expired for sessions and codes; a revoked session goes
   * whatever its expiry); returns how many.
   */
  deleteBatch(kind: RetentionKind, before: string, limit: number): Promise<number>;
}
