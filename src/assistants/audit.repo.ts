import type { DbOrTrx } from '../platform/db/database.js';
import { insertRows } from '../platform/db/reusable-query.js';
import type { McpCaller } from './caller.js';
import './mcp.tables.js';

/** Arguments are kept up to this many characters (a note's body can be long). */
const MAX_ARGUMENTS = 4000;
const MAX_ERROR = 1000;

export interface ToolCallRecord {
  tool: string;
  arguments: unknown;
  error: string | null;
}

/** Records a tool call after it ran (a failed call too); compiled once, as it runs every call. */
export async function recordToolCall(
  db: DbOrTrx,
  caller: McpCaller,
  call: ToolCallRecord,
  now: number,
): Promise<void> {
  const args = JSON.stringify(call.arguments ?? {});
  await insertRows(db, 'mcp_tool_calls', [
    {
      account_id: caller.auth.accountId,
      user_id: caller.auth.userId,
      client_id: caller.client?.id ?? null,
      client_name: caller.client?.name ?? null,
      tool: call.tool,
      arguments: args.length > MAX_ARGUMENTS ? `${args.slice(0, MAX_ARGUMENTS)}…` : args,
      outcome: call.error === null ? 'ok' : 'error',
      error: call.error === null ? null : call.error.slice(0, MAX_ERROR),
      created_at: new Date(now).toISOString(),
    },
  ]);
}

/** The account's tool calls, newest first, with the user's name. */
export function toolCallsQuery(db: DbOrTrx, accountId: number) {
  return db
    .selectFrom('mcp_tool_calls as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select([
      'c.id',
      'c.user_id',
      'u.name as user_name',
      'c.client_id',
      'c.client_name',
      'c.tool',
      'c.arguments',
      'c.outcome',
      'c.error',
      'c.created_at',
    ])
    .where('c.account_id', '=', accountId);
}
