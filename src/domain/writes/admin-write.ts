// What an administrator's writes to the community's structure share (its categories:
// category-create.ts, category-update.ts, category-delete.ts; its vote settings:
// vote-settings-set.ts), each a use case of the one runner (./runner.ts): the one administrator
// rule (src/domain/authorization.ts) as their guard, refused with what to do before the payload is
// read, and a policy that applies at once, naming who decided. Nothing is queued for approval and
// nothing replays: these writes change how a community is organised, not its content.
import { requireCommunityAdmin } from '../authorization.ts';
import type { Decision, WriteContext } from './use-case.ts';

/** The guard and policy of an administrator's write; `what` is what a refusal says may not be done ("create categories"). */
export function byAdministrator(what: string) {
  return {
    guard: (ctx: WriteContext) => requireCommunityAdmin(ctx.store, ctx.actor, ctx.community, what),
    policy: async (ctx: WriteContext): Promise<Decision> => ({
      mode: 'apply',
      reason: ctx.actor.kind === 'system' ? 'system' : 'administrator',
    }),
  };
}
