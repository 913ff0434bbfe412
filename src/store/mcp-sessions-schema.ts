// Kysely table types of the MCP session tables (migrations 0008 and 0070).
export interface McpSessionsTable {
  id: string;
  scope: string;
  owner: string | null;
  client_ip: string | null;
  protocol_version: string;
  client_info: string | null;
  client_capabilities: string;
  log_level: string | null;
  subscriptions: string;
  created_at: number | string;
  last_seen_at: number | string;
}

export interface McpStreamsTable {
  session_id: string;
  stream_id: string;
  next_seq: number;
  finished: number;
  created_at: number | string;
}

export interface McpEventsTable {
  session_id: string;
  stream_id: string;
  seq: number;
  message: string;
}

export interface McpSubscriptionsTable {
  session_id: string;
  scope: string;
  uri: string;
}

export interface McpSecretsTable {
  name: string;
  value: string;
}

export interface McpSessionTables {
  mcp_sessions: McpSessionsTable;
  mcp_subscriptions: McpSubscriptionsTable;
  mcp_secrets: McpSecretsTable;
  mcp_streams: McpStreamsTable;
  mcp_events: McpEventsTable;
}
