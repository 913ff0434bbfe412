// One product operation, defined once: its input and output schemas (with descriptions and the
// product's limits), the credential it takes, what it needs to be allowed, whether it writes, and
// its handler on the domain. Every face is derived from these definitions: MCP tools today, REST
// routes and OpenAPI, web forms.
import type { MailSite } from '../domain/identity/link-mails.ts';
import { z } from 'zod';
import type { Actor } from '../domain/actor.ts';
import type { Scope, Toolset } from '../domain/vocabulary.ts';
import type { Services } from '../services.ts';
import type { Community } from '../store/types.ts';
import type { Interaction, Reporter } from './interaction.ts';

/**
 * The credential an operation takes:
 *  - community: a credential of the community the request addressed (an agent key; on the faces
 *    that accept them, a member's user key or signed-in web session). Reading needs one too.
 *  - none: anyone, anonymously (the network's reads, over public communities only)
 *  - user: a person's user key or web session (the network's writes)
 */
export type Credential = 'community' | 'none' | 'user';
export type Server = 'community' | 'network';

/** Public URLs the presenters need. */
export type Urls = {
  /** A community's canonical MCP and web URLs (what is stored and sent out). */
  mcp(slug: string): string;
  web(slug: string): string;
  /** A presented result with its canonical community URLs in the path form (`…/c/<slug>/…`). */
  inPathForm<T>(value: T): T;
  /** Whether the apex hands communities out in the path form (a local run: no public origin). */
  listsPathForm: boolean;
};

/** What a handler runs with: the authenticated actor, and the community the request addressed. */
export type OperationContext<C extends Community | null = Community | null> = {
  actor: Actor;
  community: C;
  services: Services;
  urls: Urls;
  /** The caller's address (audit, write records). */
  ip: string;
  /** The face shows posts as HTML (the web; see Caller.showsHtml): presenters add it. */
  showsHtml: boolean;
  /** The call's audit entry: a handler names the community it touched and the ids it wrote. */
  audit: AuditNote;
  /** Questions the caller can answer mid-call, when the face offers it (throw QuestionsAsked to ask). */
  interaction?: Interaction;
  /** Progress and notes for callers that want them (silent otherwise). */
  report: Reporter;
  /** The site the request was on, for the account mails it asks for (see Caller.site). */
  site?: MailSite;
};

/** What a call's audit entry records beyond who, what and when. */
/**
 * The audit entry of a call that writes: what the write touched is added to `targets`; the write
 * runner writes the entry itself inside the write's transaction (then `recorded`), else the
 * pipeline writes it once the call ends.
 */
export type AuditNote = {
  communityId: string | null;
  targets: Record<string, string | undefined>;
  action?: string;
  ip?: string | null;
  recorded?: boolean;
};

export type Annotations = {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

/**
 * An operation with its types: the handlers see the validated input, and `run` answers what the
 * output schema describes. `authorize` and `run` are methods so that an operation is also an
 * AnyOperation (the catalogue's erased list) without a cast.
 */
export type Operation<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  S extends Server = Server,
> = {
  /** Stable name: the MCP tool name, the audit action `tool:<name>`. */
  name: string;
  server: S;
  title: string;
  description: string;
  input: I;
  output: O;
  credential: Credential;
  /** The scope an agent needs, checked after validation (writes may refine it in `authorize`). */
  scope?: Scope;
  /** Further checks that depend on the validated input; throw DomainError to refuse. */
  authorize?(
    ctx: OperationContext<S extends 'community' ? Community : null>,
    input: z.output<I>,
  ): Promise<void> | void;
  /** A write: not read-only, honours an idempotency key, the approval policy applies. */
  write?: boolean;
  /** Listed as a tool of its server's MCP surface (the REST API and the web offer every operation). */
  mcp?: boolean;
  /**
   * An MCP tool listed only where the community turned on this toolset in its MCP configuration
   * (the default tools/list stays the nine of the seed); REST and the web offer it regardless.
   */
  toolset?: Toolset;
  /**
   * May take a while: over MCP, a client that follows tasks (the Tasks extension of protocol
   * 2026-07-28) gets a task handle to poll when the call has not finished within a few seconds.
   */
  longRunning?: boolean;
  /** The presented result (never parsed again: it is what the output schema says). */
  run(
    ctx: OperationContext<S extends 'community' ? Community : null>,
    input: z.output<I>,
  ): Promise<z.output<O>>;
};

/** Any operation, its types erased: what the catalogue lists for iteration. */
export type AnyOperation = Operation<z.ZodObject, z.ZodObject, Server>;

/** What an operation answers: its output schema's type (web pages read results by it). */
export type OutputOf<Op extends AnyOperation> = z.output<Op['output']>;

/** Declares an operation with its types checked, and keeps them. */
export function defineOperation<I extends z.ZodObject, O extends z.ZodObject, S extends Server>(
  op: Operation<I, O, S>,
): Operation<I, O, S> {
  return op;
}

/** Whether `op` is one of the MCP tools of a community server whose configuration turns on `toolsets`. */
export function listedAsTool(op: AnyOperation, toolsets: readonly Toolset[]): boolean {
  return !!op.mcp && (!op.toolset || toolsets.includes(op.toolset));
}

/** The MCP tool annotations an operation implies. */
export function annotationsOf(op: AnyOperation): Annotations & { title: string } {
  return op.write
    ? {
        title: op.title,
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      }
    : { title: op.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false };
}

const converted = new WeakMap<
  AnyOperation,
  { input: Record<string, unknown>; output: Record<string, unknown> }
>();

/** The operation's input and output as JSON Schema 2020-12 (converted once per operation). */
export function jsonSchemasOf(op: AnyOperation): {
  input: Record<string, unknown>;
  output: Record<string, unknown>;
} {
  let c = converted.get(op);
  if (!c) {
    c = {
      input: z.toJSONSchema(op.input, { target: 'draft-2020-12', io: 'input' }) as Record<
        string,
        unknown
      >,
      output: z.toJSONSchema(op.output, { target: 'draft-2020-12', io: 'output' }) as Record<
        string,
        unknown
      >,
    };
    converted.set(op, c);
  }
  return c;
}
