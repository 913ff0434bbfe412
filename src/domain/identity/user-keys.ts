// People's own keys (`hmlt_u_…`, shown once): a person mints, lists and revokes their own; the
// operator (system) does it for any account by its e-mail address. Only the key's hash is stored.
// Minting and revoking are use cases of the one write runner (./user-key-mint.ts,
// ./user-key-revoke.ts); what they share is ./user-key-records.ts.
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Actor } from '../actor.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import type { Clock } from './auth.ts';
import { userKeyMint } from './user-key-mint.ts';
import { keyOwner, keyView, type KeyView } from './user-key-records.ts';
import { userKeyRevoke } from './user-key-revoke.ts';

export { expiryFrom, keyView, type KeyView } from './user-key-records.ts';

export class UserKeys {
  private readonly mint: ReturnType<typeof userKeyMint>;
  private readonly revoke: ReturnType<typeof userKeyRevoke>;

  constructor(
    private readonly store: Store,
    private readonly runner: WriteRunner,
    clock: Clock,
    private readonly logger?: Logger,
  ) {
    this.mint = userKeyMint(clock);
    this.revoke = userKeyRevoke(clock);
  }

  /** A person mints a key for themselves; the operator (system) may mint one for any e-mail. */
  async mintUserKey(
    actor: Actor,
    input: { email?: string; expiresInDays?: number },
    options?: RunOptions,
  ): Promise<{ key: string; record: KeyView }> {
    const { record, key } = await this.runner.run(this.mint, actor, null, input, options);
    this.logger?.info(
      { event: 'user_key.minted', personId: record.personId, keyPrefix: record.prefix },
      'user key minted',
    );
    return { key, record: keyView(record) };
  }

  async listUserKeys(actor: Actor, input: { email?: string } = {}): Promise<KeyView[]> {
    const person = await keyOwner(this.store, actor, input.email);
    return (await this.store.identity.credentials.listUserKeys(person.id)).map(keyView);
  }

  async revokeUserKey(
    actor: Actor,
    input: { email?: string; key: string },
    options?: RunOptions,
  ): Promise<number> {
    const { revoked, personId } = await this.runner.run(this.revoke, actor, null, input, options);
    this.logger?.info(
      { event: 'user_key.revoked', personId, keyPrefix: input.key.slice(0, 14) },
      'user key revoked',
    );
    return revoked;
  }
}
