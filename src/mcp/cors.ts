// CORS for the MCP endpoint: any origin may call it (credentials travel in headers, never cookies).
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  // Mcp-Method, Mcp-Name and Mcp-Param-Community are what 2026-07-28 clients send beside the body.
  'access-control-allow-headers':
    'Content-Type, Authorization, X-API-Key, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name, Mcp-Param-Community',
  'access-control-expose-headers': 'Mcp-Session-Id, MCP-Protocol-Version',
  'access-control-max-age': '86400',
};

// A browser reads Allow-Methods, Allow-Headers and Max-Age only on the preflight (OPTIONS) answer,
// which carries all of CORS_HEADERS; every other response carries what the browser reads there:
// Allow-Origin and Expose-Headers. (Sending all five on every response cost ~3 µs, about 8% of a
// stateless tools/call, in bench/mcp-throughput on a quiet machine: Node validates each header.)
// Headers are assembled with Object.assign rather than object spreads: on Node 20 the spread
// pattern cost several µs per response (profiled).
export const CORS_RESPONSE_HEADERS: Record<string, string> = {
  'access-control-allow-origin': CORS_HEADERS['access-control-allow-origin']!,
  'access-control-expose-headers': CORS_HEADERS['access-control-expose-headers']!,
};
