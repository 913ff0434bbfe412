// Multi round-trip requests: a handler that needs the client's input (a person's confirmation, a
// completion, the client's roots) returns InputRequired with its questions, keyed, and state of its
// own to find again. In the 2026-07-28 era the engine answers `resultType: "input_required"` with
// that state sealed in `requestState`, and the client retries with `inputResponses`; in the older
// eras the engine asks the client itself over the session and runs the handler again with the
// answers (see askOverSession in request-context.ts).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { InputCapability, InputResponse } from './context.ts';
import { ErrorCode, RpcError } from './jsonrpc.ts';

export type InputRequest = {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: Record<string, unknown>;
};

/** What a handler returns instead of its result when it needs the client's input first. */
export class InputRequired {
  constructor(
    readonly requests: Record<string, InputRequest>,
    /** Anything JSON-serializable the handler wants back on the retry (it comes back verified). */
    readonly state?: unknown,
  ) {}
}

export const CAPABILITY_OF: Record<InputRequest['method'], InputCapability> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The methods whose requests may be answered with input_required. */
export const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** How long a sealed requestState stays valid: a person may take a while to answer. */
const STATE_TTL_MS = 15 * 60_000;

/** What sealed state is bound to: who asked, and which request it belongs to. */
export type StateBinding = { principal: string; method: string; digest: string };

/** The binding of a request: its caller (a hash of the credential) and a digest of what it asked. */
export function bindingOf(
  method: string,
  params: Record<string, unknown>,
  credential: string | undefined,
): StateBinding {
  const salient =
    method === 'resources/read' ? [params.uri] : [params.name, params.arguments ?? {}];
  return {
    principal: createHash('sha256')
      .update(credential ?? '')
      .digest('base64url')
      .slice(0, 22),
    method,
    digest: createHash('sha256').update(JSON.stringify(salient)).digest('base64url').slice(0, 22),
  };
}

/**
 * requestState as `<payload>.<mac>`: the payload (base64url JSON) carries the handler's state, the
 * binding and an expiry; the MAC is HMAC-SHA256 under a key every instance shares. A client cannot
 * forge, alter, replay it for another caller or request, or use it after it lapses.
 */
export class RequestStateCodec {
  constructor(private readonly key: () => Promise<Buffer>) {}

  async seal(binding: StateBinding, state: unknown, now = Date.now()): Promise<string> {
    const payload = Buffer.from(
      JSON.stringify({ b: binding, s: state ?? null, e: now + STATE_TTL_MS }),
    ).toString('base64url');
    return `${payload}.${await this.mac(payload)}`;
  }

  /** The handler's state, or an RpcError (-32602) saying why the requestState is refused. */
  async open(token: unknown, binding: StateBinding, now = Date.now()): Promise<unknown> {
    const refuse = (why: string) =>
      new RpcError(
        ErrorCode.InvalidParams,
        `requestState refused: ${why}. Retry the original request without it.`,
      );
    if (typeof token !== 'string' || token.length > 64_000)
      throw refuse('it is not the string this server issued');
    const dot = token.lastIndexOf('.');
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(await this.mac(payload), 'base64url');
    if (dot < 1 || given.length !== expected.length || !timingSafeEqual(given, expected))
      throw refuse('it failed its integrity check');
    const opened = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      b: StateBinding;
      s: unknown;
      e: number;
    };
    if (opened.e < now) throw refuse('it expired');
    if (
      opened.b.principal !== binding.principal ||
      opened.b.method !== binding.method ||
      opened.b.digest !== binding.digest
    ) {
      throw refuse('it belongs to another caller or another request');
    }
    return opened.s ?? undefined;
  }

  private async mac(payload: string): Promise<string> {
    return createHmac('sha256', await this.key())
      .update(payload)
      .digest('base64url');
  }
}

/** inputResponses as a map of objects, or an RpcError (-32602): the client's answers, checked. */
export function readInputResponses(value: unknown): Record<string, InputResponse> {
  if (value === undefined) return {};
  const bad = () =>
    new RpcError(
      ErrorCode.InvalidParams,
      "inputResponses must be an object mapping each input request key to the client's result object.",
    );
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad();
  for (const v of Object.values(value))
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad();
  return value as Record<string, InputResponse>;
}

/** The input_required result of the 2026-07-28 era. */
export function inputRequiredResult(
  asked: InputRequired,
  requestState: string,
): Record<string, unknown> {
  return { resultType: 'input_required', inputRequests: asked.requests, requestState };
}
