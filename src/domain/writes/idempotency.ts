// Idempotent writes: an (actor, key) pair names one request. The first request claims the key
// inside its transaction and records its result there; a retry with the same request gets that
// result back, a different request under the same key is a conflict. A concurrent retry's claim
// waits on the first one's row (PostgreSQL) and fails once it commits, so only one ever applies.
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { canonicalJson, sha256Hex } from '../identity/secrets.ts';

/** Who a key belongs to: the same key from two actors names two different requests. */
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

export class IdempotencyLedger<R> {
  private readonly who: string;
  private readonly requestHash: string;

  /** `key` undefined: the request is not idempotent, every method does nothing. */
  constructor(
    private readonly community: Community,
    actor: Actor,
    private readonly key: string | undefined,
    request: unknown,
  ) {
    this.who = idempotencyActor(actor);
    this.requestHash = key ? sha256Hex(canonicalJson(request)) : '';
  }

  /** The recorded result of this request, if any; read through `store` (the transaction's, inside one). */
  async replay(store: Store): Promise<R | undefined> {
    if (!this.key) return undefined;
    const record = await store
      .community(this.community.id)
      .access.idempotency.find(this.who, this.key);
    if (!record) return undefined;
    if (record.requestHash !== this.requestHash) {
      throw new DomainError(
        'conflict',
        `The idempotency key "${this.key}" was already used for a different request. Send a new key for a new write, or resend the original request unchanged to get its result.`,
      );
    }
    return record.result as R;
  }

  async claim(tx: Store): Promise<void> {
    if (this.key)
      await tx.community(this.community.id).access.idempotency.insert({
        actor: this.who,
        key: this.key,
        requestHash: this.requestHash,
        result: null,
      });
  }

  async complete(tx: Store, result: R): Promise<void> {
    if (this.key)
      await tx
        .community(this.community.id)
        .access.idempotency.setResult(this.who, this.key, result);
  }
}
