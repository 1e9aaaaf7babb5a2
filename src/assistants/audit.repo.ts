import type { FastifyBaseLogger } from 'fastify';
import type { Insertable } from 'kysely';
import type { AppContext } from '../platform/context.js';
import type { Db, DbOrTrx } from '../platform/db/database.js';
import { insertRows } from '../platform/db/reusable-query.js';
import type { McpCaller } from './caller.js';
import type { McpToolCallsTable } from './mcp.tables.js';

/** Arguments are kept up to this many characters (a note's body can be long). */
const MAX_ARGUMENTS = 4000;
const MAX_ERROR = 1000;

export interface ToolCallRecord {
  tool: string;
  arguments: unknown;
  error: string | null;
}

/** A call's row waits at most this long, or until this many wait, before one insert writes them. */
const FLUSH_MS = 50;
const MAX_WAITING = 100;

type ToolCallRow = Insertable<McpToolCallsTable>;

/** A call as recorded: turned into its row when its batch is written (ToolCallTrail). */
interface RecordedCall extends ToolCallRecord {
  caller: McpCaller;
  at: number;
}

function rowOf({ caller, tool, arguments: args, error, at }: RecordedCall): ToolCallRow {
  const json = JSON.stringify(args ?? {});
  return {
    account_id: caller.auth.accountId,
    user_id: caller.auth.userId,
    client_id: caller.client?.id ?? null,
    client_name: caller.client?.name ?? null,
    tool,
    arguments: json.length > MAX_ARGUMENTS ? `${json.slice(0, MAX_ARGUMENTS)}…` : json,
    outcome: error === null ? 'ok' : 'error',
    error: error === null ? null : error.slice(0, MAX_ERROR),
    created_at: new Date(at).toISOString(),
  };
}

/**
 * The audit trail's writer. A commit of its own for each call's row cost a read tool about as much
 * as the protocol's framing (docs/mcp.md), so the rows of the next 50 ms are written by one insert.
 * Listing the trail and stopping the app write what waits first; a crash of the process loses at
 * most the last 50 ms of rows, never a change a tool made.
 */
export class ToolCallTrail {
  #waiting: RecordedCall[] = [];
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Records a tool call after it ran (a failed call too). Its row is made when written: a batch's
   * JSON and dates in one loop cost a fraction of what each call's did (10 µs a call measured).
   * The arguments are the call's own parsed object, which no tool changes.
   */
  record(caller: McpCaller, call: ToolCallRecord, now: number): void {
    this.#waiting.push({ ...call, caller, at: now });
    if (this.#waiting.length >= MAX_WAITING) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes the rows waiting; resolves once they (and any written before) are stored. */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const calls = this.#waiting;
    this.#waiting = [];
    if (calls.length) this.#writing = this.#writing.then(() => this.#write(calls));
    return this.#writing;
  }

  /** Never rejects: the next flushes chain on it. */
  async #write(calls: RecordedCall[]): Promise<void> {
    try {
      await insertRows(this.db, 'mcp_tool_calls', calls.map(rowOf));
    } catch {
      // One bad row (its user deleted meanwhile) must not cost the others theirs.
      for (const call of calls)
        await Promise.resolve()
          .then(() => insertRows(this.db, 'mcp_tool_calls', [rowOf(call)]))
          .catch((err: unknown) =>
            this.log.error({ err, tool: call.tool }, 'MCP tool call not audited'),
          );
    }
  }
}

const trails = new WeakMap<AppContext, ToolCallTrail>();

/** The app's one trail writer (made on first use). */
export function toolCallTrail(ctx: AppContext): ToolCallTrail {
  let trail = trails.get(ctx);
  if (!trail) trails.set(ctx, (trail = new ToolCallTrail(ctx.db, ctx.log)));
  return trail;
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
