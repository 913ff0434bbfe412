// A person's own account: the user keys (hmlt_u_) they mint for agents that act on their behalf on
// the network. A key is shown once, when minted; afterwards only its prefix is listed.
import { z } from 'zod';
import { expiresInDays, keyRef, LIMITS, span } from '../domain/fields.ts';
import { defineOperation } from './operation.ts';
import { presentKey } from './present.ts';
import { keyOut } from './schemas.ts';

export const listMyKeys = defineOperation({
  name: 'list_my_keys',
  server: 'network',
  title: 'My user keys',
  description: 'Your user keys by prefix, with when they were last used, expire or were revoked.',
  input: z.strictObject({}),
  output: z.object({ keys: z.array(keyOut) }),
  credential: 'user',
  run: async (ctx) => ({
    keys: (await ctx.services.accounts.listUserKeys(ctx.actor)).map(presentKey),
  }),
});

export const mintMyKey = defineOperation({
  name: 'mint_my_key',
  server: 'network',
  title: 'Mint a user key',
  description: 'A new user key for an agent acting on your behalf (shown once: store it now).',
  input: z.strictObject({
    expires_in_days: expiresInDays
      .optional()
      .describe(
        `The key expires after this many days (${span(LIMITS.expiresInDays)}). Default: never.`,
      ),
  }),
  output: z.object({
    key: z.string().describe('The key itself, shown this once.'),
    record: keyOut,
  }),
  credential: 'user',
  write: true,
  run: async (ctx, input) => {
    const minted = await ctx.services.accounts.mintUserKey(
      ctx.actor,
      { expiresInDays: input.expires_in_days },
      { ip: ctx.ip, audit: ctx.audit },
    );
    return { key: minted.key, record: presentKey(minted.record) };
  },
});

export const revokeMyKey = defineOperation({
  name: 'revoke_my_key',
  server: 'network',
  title: 'Revoke a user key',
  description: 'The key stops working at once. Give its id or prefix.',
  input: z.strictObject({ key: keyRef.describe('The key id or prefix.') }),
  output: z.object({ revoked: z.number().int().describe('How many keys were revoked.') }),
  credential: 'user',
  write: true,
  run: async (ctx, input) => ({
    revoked: await ctx.services.accounts.revokeUserKey(ctx.actor, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    }),
  }),
});

export const ACCOUNT_OPERATIONS = [listMyKeys, mintMyKey, revokeMyKey];
