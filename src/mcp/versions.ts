// MCP protocol versions this server speaks, newest first. The first is the one answered when a
// client asks for a version we do not know (MCP lifecycle: the server proposes its own).
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const PREFERRED_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

export function isSupportedVersion(v: unknown): v is ProtocolVersion {
  return typeof v === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

/** Echo the requested version when supported, otherwise answer the preferred one. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : PREFERRED_PROTOCOL_VERSION;
}

/** Streams that can be resumed start with a priming event from this version on (SEP-1699). */
export function sendsPrimingEvents(v: string): boolean {
  return v >= '2025-11-25';
}
