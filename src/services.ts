// The domain services, built once per process over one Store and search index: `serve`, the CLI,
// the importer and the demo all take them from here (src/main.ts opens the database and calls it).
import { MaintenanceGate } from './domain/maintenance.ts';
import { readFileSync } from 'node:fs';
import type { Config } from './config/config.ts';
import type { Logger } from './log.ts';
import type { Store } from './store/repositories.ts';
import type { SearchIndex } from './search/index.ts';
import { SearchService, type SearchOptions } from './search/service.ts';
import { CategoryService } from './domain/categories.ts';
import { ModerationService } from './domain/moderator-actions.ts';
import { CommunityService } from './domain/communities.ts';
import { CommunityMcpService } from './domain/community-mcp.ts';
import { ContentService } from './domain/content.ts';
import { ContentEvents } from './domain/events.ts';
import { ProfileService } from './domain/profiles.ts';
import { NotificationService } from './domain/notifications/service.ts';
import { DraftService } from './domain/drafts/service.ts';
import { BookmarkService } from './domain/bookmarks/service.ts';
import { ReadingService } from './domain/reading/service.ts';
import { PostHistoryService } from './domain/post-history.ts';
import { UploadService } from './domain/uploads/service.ts';
import { UploadBytes } from './store/upload-bytes.ts';
import { AccountService } from './domain/identity/accounts.ts';
import { AgentService } from './domain/identity/agents.ts';
import { AuditService } from './domain/identity/audit.ts';
import { AuthService, systemClock, type Clock } from './domain/identity/auth.ts';
import { RateLimits, TokenBucketLimiter, type RateLimiter } from './domain/identity/rate-limit.ts';
import { OAuthService } from './domain/oauth/service.ts';
import { ApprovalService } from './domain/writes/approvals.ts';
import { WriteService } from './domain/writes/write-service.ts';
import { SecretBox } from './domain/webhooks/secret-box.ts';
import { WebhookService } from './domain/webhooks/service.ts';
import { AccountLinks } from './domain/identity/account-links.ts';
import { Mailer } from './domain/mail/mailer.ts';
import { MailService } from './domain/mail/service.ts';
import { publicOrigin } from './domain/urls.ts';
import { FeedbackService } from './domain/feedback/service.ts';
import { FlagService } from './domain/moderation/flags.ts';
import { ReviewService } from './domain/moderation/review.ts';
import { SanctionService } from './domain/moderation/sanctions.ts';
import { ModerationSettingsService } from './domain/moderation/settings-service.ts';
import { SitemapService } from './domain/sitemaps.ts';

export type Services = {
  /** Content and approval events, published after each write commits (search, MCP, webhooks listen). */
  events: ContentEvents;
  /** Maintenance mode: a serving instance starts reading it; while on, writes are refused. */
  maintenance: MaintenanceGate;
  communities: CommunityService;
  content: ContentService;
  /** A community's categories as its administrators manage them. */
  categories: CategoryService;
  /** Moderators' actions on topics and posts, and the moderation log. */
  moderation: ModerationService;
  profiles: ProfileService;
  notifications: NotificationService;
  /** Votes and "this worked" reports on posts, and each post's signals. */
  feedback: FeedbackService;
  /** People's unsent replies and topics. */
  drafts: DraftService;
  bookmarks: BookmarkService;
  /** What each person read per topic, topic views (batched), what lists show of a topic's life. */
  reading: ReadingService;
  postHistory: PostHistoryService;
  /** Files attached to posts: checked by content, kept per community, served to its readers. */
  uploads: UploadService;
  search: SearchService;
  mcpConfig: CommunityMcpService;
  auth: AuthService;
  accounts: AccountService;
  /** Account links by e-mail: verification, password reset, e-mail change. */
  accountLinks: AccountLinks;
  /** Outbound mail: queue a mail in a write's transaction (mail.queue), the admins' queue view. */
  mail: MailService;
  agents: AgentService;
  writes: WriteService;
  approvals: ApprovalService;
  audit: AuditService;
  rateLimits: RateLimits;
  webhooks: WebhookService;
  /** The authorization server for MCP hosts, and its check of access tokens. */
  oauth: OAuthService;
  /** Flags on posts, hiding and showing them (src/domain/moderation/). */
  flags: FlagService;
  /** The one review queue: queued writes and flagged posts. */
  review: ReviewService;
  /** Suspending and silencing people and agents. */
  sanctions: SanctionService;
  moderationSettings: ModerationSettingsService;
  /** What crawlers read: the public communities and topics, in files of a bounded size. */
  sitemaps: SitemapService;
};

export type ServiceDeps = {
  store: Store;
  searchIndex: SearchIndex;
  config: Config;
  logger?: Logger;
  clock?: Clock;
  limiter?: RateLimiter;
  search?: SearchOptions;
  /** URLs per sitemap file (default SITEMAP_URLS_PER_FILE; smaller in tests). */
  sitemapUrlsPerFile?: number;
  /**
   * The events of another set of services over the same data (the one over the replica-routing
   * store, src/main.ts): shared, so that one set of subscribers hears every write.
   */
  events?: ContentEvents;
};

export function createServices(deps: ServiceDeps): Services {
  const { store, config, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const events =
    deps.events ??
    new ContentEvents((err, event) =>
      logger?.error({ err, event: event.type }, 'content event listener failed'),
    );
  const content = new ContentService(store, config, events);
  const audit = new AuditService(store, logger);
  const auth = new AuthService(store, clock, logger);
  const clientCa = config.oauth.clientCaFile
    ? readFileSync(config.oauth.clientCaFile, 'utf8')
    : undefined;
  const oauth = new OAuthService(
    store,
    auth,
    audit,
    { ...config.oauth, clientCa },
    config,
    clock,
    logger,
  );
  const mailer = new Mailer(
    store,
    {
      enabled: Boolean(config.mail.smtpUrl),
      from: config.mail.from,
      // Read at each use: with PORT=0 the port is known only once the server listens.
      get origin() {
        return publicOrigin(config);
      },
    },
    logger,
  );
  // The one runner every write goes through; the content writes ask the account links whether a
  // person may post (called at a write, once everything here is built).
  const maintenance = new MaintenanceGate(store);
  const writes = new WriteService(
    store,
    config,
    events,
    audit,
    (personId, community): Promise<void> => accountLinks.requireMayPost(personId, community),
    maintenance,
  );
  const { runner } = writes;
  const accountLinks = new AccountLinks(store, mailer, clock, runner, logger);
  const approvals = new ApprovalService(store, writes, audit);
  const flags = new FlagService(store, config, runner);
  return {
    events,
    maintenance,
    communities: new CommunityService(
      store,
      { communityCreation: config.people.communityCreation },
      runner,
    ),
    content,
    categories: new CategoryService(writes.runner),
    moderation: new ModerationService(store, writes.runner),
    profiles: new ProfileService(store, config, writes.runner),
    notifications: new NotificationService(store, config, writes.runner),
    feedback: new FeedbackService(store, writes.runner),
    drafts: new DraftService(store, writes.runner),
    bookmarks: new BookmarkService(store, config, writes.runner),
    reading: new ReadingService(store, (err) => logger?.warn({ err }, 'topic views not counted')),
    postHistory: new PostHistoryService(store),
    uploads: new UploadService(
      store,
      config,
      new UploadBytes(config.uploads.dir),
      writes.runner,
      (personId, c) => accountLinks.requireMayPost(personId, c),
    ),
    search: new SearchService(store, deps.searchIndex, config, { ...deps.search, logger }),
    mcpConfig: new CommunityMcpService(store),
    auth,
    accounts: new AccountService(
      store,
      auth,
      runner,
      clock,
      logger,
      { signUp: config.people.signUp },
      accountLinks,
    ),
    accountLinks,
    mail: new MailService(store, mailer, config.mail.smtpUrl ?? '', runner),
    agents: new AgentService(store, runner, clock, logger),
    writes,
    approvals,
    audit,
    rateLimits: new RateLimits(config.rateLimits, deps.limiter ?? new TokenBucketLimiter(clock)),
    webhooks: new WebhookService(store, config.webhooks, webhookSecrets(store, config), runner),
    oauth,
    flags,
    review: new ReviewService(store, config, approvals, flags),
    sanctions: new SanctionService(store, runner, clock),
    moderationSettings: new ModerationSettingsService(store, runner),
    sitemaps: new SitemapService(store, config, deps.sitemapUrlsPerFile),
  };
}

/** Webhook secrets are encrypted under HAMLET_WEBHOOK_SECRET_KEY, else under a key kept in the database. */
function webhookSecrets(store: Store, config: Config): SecretBox {
  const key = config.webhooks.secretKey;
  return new SecretBox(
    key
      ? { name: 'env', secret: key }
      : {
          name: 'db',
          load: () => store.webhookQueue.keyringKey('webhook-secrets', SecretBox.newKey()),
        },
  );
}
