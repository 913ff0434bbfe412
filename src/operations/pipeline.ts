// The one call pipeline every face runs (MCP tools and content methods, REST, web forms), after the
// face has resolved the community the request addressed and counted it against the caller's IP:
//
//   authenticate → rate-limit (per key) → validate → authorize → run → present → audit
//
// Only writes are audited: a read writes nothing, not even an audit row; the request's access-log
// line records it (the face is told who the caller is, for that line).
//
// A caller without a credential learns that first, before anything about its arguments. Failures
// come back as values (never thrown) carrying the domain's error code, so each face renders them
// its own way: an MCP result with isError, a problem+json response, a form with messages.
import type { MailSite } from '../domain/identity/link-mails.ts';
import type { z } from 'zod';
import { anonymous, type Actor, type PersonActor } from '../domain/actor.ts';
import {
  canRead,
  communityNotFound,
  requireScope,
  ScopeNotGranted,
} from '../domain/authorization.ts';
import { isAccessToken, type ConnectorRequest } from '../domain/identity/connector-request.ts';
import {
  DomainError,
  isDomainError,
  unavailableOf,
  type DomainErrorCode,
} from '../domain/errors.ts';
import { RateLimitedError, type RateState } from '../domain/identity/rate-limit.ts';
import { keyKind } from '../domain/identity/secrets.ts';
import { inputErrorOf, NUL_MESSAGE, nulPath } from '../domain/validate.ts';
import type { Logger } from '../log.ts';
import type { Services } from '../services.ts';
import type { Community } from '../store/types.ts';
import type { AuditNote, Credential, Operation, OperationContext, Urls } from './operation.ts';
import type { ReadRouting } from './read-routing.ts';
import {
  QuestionsAsked,
  SILENT,
  type Interaction,
  type Question,
  type Reporter,
} from './interaction.ts';

/** Who is calling and where: what the face learned from the request. */
export type Caller = {
  /** The community whose host (or path) the request addressed; null on the network apex. */
  community: Community | null;
  /** The key from `Authorization: Bearer …` or `X-API-Key`, if any. Never logged. */
  credential?: string;
  /**
   * Whether a person's user key (hmlt_u_) is taken on a community (REST, web). A community's MCP
   * server takes its agent keys only.
   */
  userKeys?: boolean;
  /** A person the face already authenticated (web session with its CSRF token checked). */
  person?: PersonActor;
  /**
   * The face serves visitors without any credential (the web): they act as anonymous, so they read
   * public communities and nothing else (a private one answers not_found, as if it did not exist).
   */
  visitor?: boolean;
  /**
   * The face shows posts as HTML (the web): results carry each post's stored render beside its
   * Markdown, and a topic's pages are cut by the size of that HTML. The APIs return Markdown only.
   */
  showsHtml?: boolean;
  ip: string;
  /**
   * The request addressed its community by path (`/c/<slug>/…`): links in what it gets back use
   * that form. What is stored or sent later (ledger, webhooks) always has the canonical URL.
   */
  pathForm?: boolean;
  /** What the connector URL verified for this request (its access token and person), if it came there. */
  connector?: ConnectorRequest;
  /** What the face calls the thing asked for in "… needs an agent key" (default "This tool"). */
  asked?: string;
  /** Questions the face can put to the caller mid-call (MCP); absent: operations never ask. */
  interaction?: Interaction;
  /** Where an operation's progress and notes go (MCP progress and log notifications). */
  reporter?: Reporter;
  /** Told the caller's per-key budget once it was charged (REST's RateLimit headers). */
  onRateLimit?: (state: RateState) => void;
  /** Told who the caller is once authenticated (the request's access-log line names them). */
  onAuthenticated?: (actor: Actor) => void;
  /**
   * The site a web page was on (its community's name and base URL in the request's form, from the
   * configured origins): the account mails a call asks for name it and link there.
   */
  site?: MailSite;
};

/**
 * What a front door learned about a request beyond its credential and address, handed in with it
 * (on MCP as the request's opaque context): the address form, and what the connector verified.
 */
export type RequestScope = Pick<Caller, 'pathForm' | 'connector' | 'onAuthenticated'>;

export type Issue = { path: string; message: string };
/** 'ask': not a failure but a pause: the operation put `questions` to a caller that can answer them. */
export type Stage = 'authenticate' | 'validate' | 'call' | 'ask';

export type Failure = {
  ok: false;
  /** 'validate': the arguments did not match the input schema (they never reached the domain). */
  stage: Stage;
  code: DomainErrorCode;
  message: string;
  /** For rate_limited: how long to wait. */
  retryAfterSeconds?: number;
  /** For stage 'validate': each offending field. */
  issues?: Issue[];
  /** For stage 'ask': what the caller is asked before the operation goes on. */
  questions?: Question[];
};
export type Outcome<T> = { ok: true; value: T } | Failure;

/**
 * What a call needs: its credential, its audit action, what to call the thing asked for in "… needs
 * an agent key" (e.g. "This tool"), and whether it writes (only writes are audited).
 */
export type Guarded = { credential: Credential; action: string; what: string; write?: boolean };

class InvalidArguments extends Error {
  constructor(readonly issues: Issue[]) {
    super('invalid arguments');
  }
}

/** "filters.limit: Too big: expected number to be <=50" per issue. */
export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((i) => ({
    path: i.path.length ? i.path.join('.') : '(arguments)',
    message: i.message,
  }));
}

export class Pipeline {
  constructor(
    private readonly services: Services,
    private readonly urls: Urls,
    private readonly logger: Logger,
    /** With PostgreSQL standbys: which services each operation runs on (./read-routing.ts). */
    private readonly reads?: ReadRouting,
  ) {}

  /** Runs one catalogue operation for `caller` with the raw `args`; the output is the presented result. */
  async invoke<O extends z.ZodObject>(
    op: Operation<z.ZodObject, O>,
    caller: Caller,
    args: unknown,
  ): Promise<Outcome<z.output<O>>> {
    return this.guard(
      caller,
      {
        credential: op.credential,
        action: `tool:${op.name}`,
        what: caller.asked ?? 'This tool',
        write: op.write,
      },
      async (actor, audit) => {
        const nul = nulPath(args);
        if (nul !== undefined) throw new InvalidArguments([{ path: nul, message: NUL_MESSAGE }]);
        const parsed = op.input.safeParse(args ?? {});
        if (!parsed.success) throw new InvalidArguments(issuesOf(parsed.error));
        const on = async (services: Services) => {
          const ctx: OperationContext = {
            actor,
            community: caller.community,
            services,
            urls: this.urls,
            ip: caller.ip,
            showsHtml: caller.showsHtml ?? false,
            audit,
            interaction: caller.interaction,
            report: caller.reporter ?? SILENT,
            ...(caller.site ? { site: caller.site } : {}),
          };
          if (op.scope) requireScope(actor, op.scope);
          await op.authorize?.(ctx as never, parsed.data);
          return op.run(ctx as never, parsed.data);
        };
        const services = this.reads?.servicesFor(actor, op.write ?? false) ?? this.services;
        let result;
        try {
          result = await on(services);
        } catch (err) {
          // A read whose standby went away mid-way (a snapshot transaction cannot move) runs
          // again, once, on the primary: the caller never hears of a standby's loss.
          if (op.write || services === this.services || !unavailableOf(err)) throw err;
          result = await on(this.services);
        }
        if (op.write) await this.reads?.wrote(actor);
        return result;
      },
    );
  }

  /**
   * The steps every call takes around its own work: authenticate, rate-limit per key, run `body`,
   * audit a write. Content reads that are not catalogue operations (resources, prompts, completion)
   * use it directly; `body` gets the actor and the audit record it may add targets to.
   */
  async guard<T>(
    caller: Caller,
    what: Guarded,
    body: (actor: Actor, audit: AuditNote) => Promise<T>,
  ): Promise<Outcome<T>> {
    let actor: Actor;
    try {
      actor = await this.authenticate(caller, what);
      caller.onAuthenticated?.(actor);
      const state = await this.admit(actor);
      if (state) caller.onRateLimit?.(state);
      // Suspended: refused here; silenced: writes refused (with the reason and the end time).
      if (caller.community && (actor.kind === 'person' || what.write))
        await this.services.sanctions.admit(actor, caller.community, what.write ?? false);
    } catch (err) {
      return this.failure(err, 'authenticate', caller);
    }
    const audit: AuditNote = {
      communityId: caller.community?.id ?? null,
      targets: {},
      action: what.action,
      ip: caller.ip,
    };
    const audited = what.write === true;
    try {
      const value = await body(actor, audit);
      if (audited && !audit.recorded)
        await this.services.audit.call(
          actor,
          {
            communityId: audit.communityId,
            action: what.action,
            targets: audit.targets,
            ip: caller.ip,
          },
          { ok: true },
        );
      // Stored and sent out canonical; handed back in the form the request addressed (the apex
      // lists communities in the form they are listed in: locally the path form).
      const pathForm = caller.pathForm || (!caller.community && this.urls.listsPathForm);
      return { ok: true, value: pathForm ? this.urls.inPathForm(value) : value };
    } catch (err) {
      if (err instanceof QuestionsAsked) {
        // The write asked and wrote nothing yet; it is recorded as a call that went well.
        audit.targets.asked = err.questions.map((q) => q.key).join(',');
        if (audited && !audit.recorded)
          await this.services.audit.call(
            actor,
            {
              communityId: audit.communityId,
              action: what.action,
              targets: audit.targets,
              ip: caller.ip,
            },
            { ok: true },
          );
        return {
          ok: false,
          stage: 'ask',
          code: err.code,
          message: err.message,
          questions: err.questions,
        };
      }
      if (audited && !audit.recorded)
        await this.services.audit.call(
          actor,
          {
            communityId: audit.communityId,
            action: what.action,
            targets: audit.targets,
            ip: caller.ip,
          },
          { ok: false, error: err },
        );
      return this.failure(err, err instanceof InvalidArguments ? 'validate' : 'call', caller);
    }
  }

  private async authenticate(caller: Caller, what: Guarded): Promise<Actor> {
    switch (what.credential) {
      case 'none':
        return { kind: 'anonymous' };
      case 'user':
        return caller.person ?? this.services.auth.authenticateUserKey(caller.credential);
      case 'community': {
        if (!caller.community)
          throw new DomainError('not_found', 'This request did not resolve to a community.');
        if (caller.person) return caller.person;
        if (isAccessToken(caller.credential))
          return this.services.auth.authenticateAccessToken(
            caller.community,
            caller.credential,
            caller.connector,
          );
        if (caller.visitor && !caller.credential) {
          if (!canRead(anonymous, caller.community)) throw communityNotFound(caller.community.slug);
          return anonymous;
        }
        if (caller.userKeys && isUserKey(caller.credential))
          return this.services.auth.authenticateUserKey(caller.credential);
        return this.services.auth.authenticateAgentKey(
          caller.community,
          caller.credential,
          what.what,
        );
      }
    }
  }

  /** Per credential: each key has its own budget (by key id, never by its shared display prefix). */
  private async admit(actor: Actor): Promise<RateState | undefined> {
    if (actor.kind === 'agent')
      return this.services.rateLimits.checkKey(actor.keyId ?? `agent:${actor.agentId}`);
    if (actor.kind === 'person')
      return this.services.rateLimits.checkKey(actor.keyId ?? `person:${actor.personId}`);
    return undefined;
  }

  private failure(err: unknown, stage: Stage, caller: Caller): Failure {
    err = inputErrorOf(err) ?? err;
    // The connector asks for a missing scope (step-up): it answers 403 insufficient_scope naming it.
    if (err instanceof ScopeNotGranted) caller.connector?.missingScopes.add(err.scope);
    if (err instanceof InvalidArguments) {
      return {
        ok: false,
        stage: 'validate',
        code: 'invalid_argument',
        message: err.issues.map((i) => `${i.path}: ${i.message}`).join('; '),
        issues: err.issues,
      };
    }
    const outage = unavailableOf(err);
    if (outage) {
      if (outage !== err) this.logger.warn({ err }, 'database unavailable; answered 503');
      return {
        ok: false,
        stage,
        code: 'unavailable',
        message: outage.message,
        retryAfterSeconds: outage.retryAfterSeconds,
      };
    }
    if (isDomainError(err)) {
      const f: Failure = { ok: false, stage, code: err.code, message: err.message };
      if (err instanceof RateLimitedError) f.retryAfterSeconds = err.retryAfterSeconds;
      return f;
    }
    this.logger.error({ err }, 'operation failed unexpectedly');
    return {
      ok: false,
      stage,
      code: 'internal',
      message:
        'Something failed unexpectedly on our side. Try again; if it keeps failing, report it.',
    };
  }
}

function isUserKey(credential: string | undefined): boolean {
  return credential !== undefined && keyKind(credential.trim()) === 'user';
}
