// One bundle of the identity services for the wiring (src/main.ts) and the CLI.
import type { Config } from '../../config/config.ts';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { ContentService } from '../content.ts';
import { WriteService } from '../writes.ts';
import { AccountService } from './accounts.ts';
import { AgentService } from './agents.ts';
import { ApprovalService } from './approvals.ts';
import { AuditService } from './audit.ts';
import { AuthService, systemClock, type Clock } from './auth.ts';
import { RateLimits, TokenBucketLimiter, type RateLimiter } from './rate-limit.ts';

export type IdentityServices = {
  auth: AuthService;
  accounts: AccountService;
  agents: AgentService;
  approvals: ApprovalService;
  writes: WriteService;
  audit: AuditService;
  rateLimits: RateLimits;
};

export function createIdentityServices(deps: {
  store: Store;
  config: Config;
  content: ContentService;
  logger?: Logger;
  clock?: Clock;
  limiter?: RateLimiter;
}): IdentityServices {
  const clock = deps.clock ?? systemClock;
  return {
    auth: new AuthService(deps.store, clock, deps.logger),
    accounts: new AccountService(deps.store, clock, deps.logger),
    agents: new AgentService(deps.store, clock, deps.logger),
    approvals: new ApprovalService(deps.store, deps.config, deps.content, deps.logger),
    writes: new WriteService(deps.store, deps.config, deps.content, deps.logger),
    audit: new AuditService(deps.store, deps.logger),
    rateLimits: new RateLimits(deps.config.rateLimits, deps.limiter ?? new TokenBucketLimiter(clock)),
  };
}

export { AuthService, missingAgentKey, missingUserKey, type Clock } from './auth.ts';
export { requireScope, requireDecider, requireCommunityAdmin, SCOPE_FOR_KIND } from './permissions.ts';
export { RateLimitedError, RateLimits, TokenBucketLimiter } from './rate-limit.ts';
