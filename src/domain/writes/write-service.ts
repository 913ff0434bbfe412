// The content writes every face goes through (MCP tools, REST, web forms, the network's
// ask_community, the mail importer, the demo): a write of a kind (topic.create, post.create,
// solution.mark, article.write; ./content-writes.ts) run by the one runner (./runner.ts), and the
// runner itself for the other services' use cases.
import type { MaintenanceGate } from '../maintenance.ts';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import type { ContentEvents } from '../events.ts';
import type { AuditService } from '../identity/audit.ts';
import { isWriteKind, WRITE_KINDS, type WriteKind } from '../vocabulary.ts';
import type { ContentDeps } from './content-write.ts';
import { contentWrites, type ContentWrites } from './content-writes.ts';
import { WriteRunner, type Begun, type CallAudit, type RunOptions } from './runner.ts';
import type { WriteResult } from './written.ts';

export type { AppliedWrite, QueuedWrite, WriteResult } from './written.ts';
export type { CallAudit };
export type WriteOptions = RunOptions;

/** A content write begun (checked and loaded, or already answered by its idempotency key). */
export type PreparedWrite = Begun<WriteResult>;

export class WriteService {
  /** The one runner of every write. */
  readonly runner: WriteRunner;
  /** The content writes by kind. */
  readonly kinds: ContentWrites;

  constructor(
    store: Store,
    config: Config,
    /** Receives content and approval events once the write has committed. */
    events: ContentEvents,
    audit: AuditService,
    /** A person may be refused before anything is read: their address is not confirmed yet. */
    mayPost?: ContentDeps['mayPost'],
    maintenance?: MaintenanceGate,
  ) {
    this.runner = new WriteRunner({ store, config, events, audit, maintenance });
    this.kinds = contentWrites({ mayPost });
  }

  /** One content write, run through every step. */
  async execute(
    actor: Actor,
    community: Community,
    kind: WriteKind,
    payload: unknown,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    return this.runner.run(this.kindOf(kind), actor, community, payload, options);
  }

  /**
   * A content write up to its policy: guard → contract → replay → load → route. The caller may look
   * around before `run` (create_topic's similar questions); a replayed answer needs no look.
   */
  async prepare(
    actor: Actor,
    community: Community,
    kind: WriteKind,
    payload: unknown,
    options: WriteOptions = {},
  ): Promise<PreparedWrite> {
    return this.runner.begin(this.kindOf(kind), actor, community, payload, options);
  }

  /** The rest of a prepared write: policy → transaction → events. */
  async run(prepared: PreparedWrite): Promise<WriteResult> {
    return 'run' in prepared ? prepared.run() : prepared.answered;
  }

  private kindOf(kind: WriteKind) {
    if (!isWriteKind(kind))
      throw new DomainError(
        'invalid_argument',
        `Unknown write "${String(kind)}". Use one of ${WRITE_KINDS.join(', ')}.`,
      );
    return this.kinds[kind];
  }
}
