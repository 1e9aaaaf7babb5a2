import type { Generated } from 'kysely';

/** One tool call of an AI assistant (migration 0420): who, through which assistant, what. */
export interface McpToolCallsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  /** oauth_clients.id; null for an API key. */
  client_id: number | null;
  client_name: string | null;
  tool: string;
  arguments: string;
  outcome: 'ok' | 'error';
  error: string | null;
  created_at: string;
}

declare module '../platform/db/extension-tables.js' {
  interface ExtensionTables {
    mcp_tool_calls: McpToolCallsTable;
  }
}
