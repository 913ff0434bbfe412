// What a session keeps of a client's initialize: its name, title and version cut to a sane length,
// and the capabilities the server acts on (elicitation, sampling, roots) as small flag objects.
// Nothing else a client sends at initialize is stored.
import { isRecord } from './methods.ts';
import type { SessionRecord } from './session-store.ts';

const CLIENT_INFO_FIELD_MAX = 200;

/** The client's name, title and version, each cut to a sane length: nothing else is kept. */
export function boundedClientInfo(info: unknown): SessionRecord['clientInfo'] {
  if (!isRecord(info)) return undefined;
  const out: NonNullable<SessionRecord['clientInfo']> = {};
  for (const k of ['name', 'title', 'version'] as const)
    if (typeof info[k] === 'string') out[k] = info[k].slice(0, CLIENT_INFO_FIELD_MAX);
  return out;
}

/** The capabilities the server acts on (elicitation, sampling, roots), each as a small flag object. */
export function boundedCapabilities(caps: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(caps)) return out;
  for (const k of ['elicitation', 'sampling', 'roots'] as const)
    if (isRecord(caps[k])) out[k] = flags(caps[k]);
  return out;
}

/** An object's members one level deep, kept only when they are booleans or empty objects. */
function flags(v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v).slice(0, 10))
    if (typeof x === 'boolean' || (isRecord(x) && Object.keys(x).length === 0))
      out[k.slice(0, 40)] = isRecord(x) ? {} : x;
  return out;
}
