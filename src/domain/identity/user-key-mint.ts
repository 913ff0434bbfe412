// user_key.mint: a person mints a key for themselves (the operator: for any account, by its
// address), returned once; only its hash is stored.
import { z } from 'zod';
import type { Person } from '../../store/types.ts';
import type { UserKeyRecord } from '../../store/identity.ts';
import { expiresInDays } from '../fields.ts';
import { parse } from '../validate.ts';
import type { UseCase } from '../writes/use-case.ts';
import type { Clock } from './auth.ts';
import { mintKey } from './secrets.ts';
import { expiryFrom, keyOwner } from './user-key-records.ts';

const contract = z.object({ email: z.string().optional(), expiresInDays: z.unknown().optional() });

type Loaded = { person: Person; days: number | undefined };

export function userKeyMint(
  clock: Clock,
): UseCase<z.output<typeof contract>, Loaded, { record: UserKeyRecord; key: string }, null> {
  return {
    name: 'user_key.mint',
    contract,
    load: async ({ store, actor }, input) => {
      const days = parse(expiresInDays.optional(), input.expiresInDays);
      return { person: await keyOwner(store, actor, input.email), days };
    },
    policy: async () => ({ mode: 'apply', reason: 'own_key' }),
    apply: async ({ tx }, _input, { person, days }) => {
      const minted = mintKey('user');
      const record = await tx.identity.credentials.createUserKey({
        personId: person.id,
        prefix: minted.prefix,
        keyHash: minted.hash,
        expiresAt: expiryFrom(clock(), days),
      });
      return { record, key: minted.key };
    },
    audit: (minted) => ({ targets: { key_id: minted.record.id } }),
  };
}
