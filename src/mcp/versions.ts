// MCP protocol versions this server speaks. Two eras share the endpoint: the legacy versions open a
// session with `initialize`; the modern one (2026-07-28) carries version and client capabilities in
// every request's `_meta` and has no handshake. The first legacy version is the one an `initialize`
// gets when it asks for a version we do not know (MCP lifecycle: the server proposes its own).
export const LEGACY_PROTOCOL_VERSIONS = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
] as const;
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** Every version, newest first: what server/discover lists and an unsupported-version error names. */
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [
  MODERN_PROTOCOL_VERSION,
  ...LEGACY_PROTOCOL_VERSIONS,
];

export type ProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];
export const PREFERRED_PROTOCOL_VERSION: ProtocolVersion = LEGACY_PROTOCOL_VERSIONS[0];

export function isSupportedVersion(v: unknown): v is ProtocolVersion {
  return typeof v === 'string' && (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

/** A version of the per-request era (2026-07-28 and later, whether or not we speak it). */
export function isModernVersion(v: string): boolean {
  return v >= MODERN_PROTOCOL_VERSION && !isSupportedVersion(v);
}

/** Echo the requested version when supported, otherwise answer the preferred one. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : PREFERRED_PROTOCOL_VERSION;
}

/** Streams that can be resumed start with a priming event from this version on (SEP-1699). */
export function sendsPrimingEvents(v: string): boolean {
  return v >= '2025-11-25';
}
