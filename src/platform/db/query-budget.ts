import { sql, type SqlBool } from 'kysely';
import { tooSlow, budgetDeadline } from './sqlite/budget-function.js';
import type { DbOrTrx } from './database.js';
import { inListLane } from './list-lanes.js';
import type { DialectName } from './dialect.js';
import { heavyReadDbOf } from './hearth-db.js';

/*
 * How long one list request's queries may run: HEARTH_LIST_QUERY_MS (config.ts, 1,000 ms). With
 * the indexes of migration 0140 a list query takes milliseconds; one that would not is stopped
 * and answered 503 with what to narrow, instead of holding a connection or a read thread.
 */

/**
 * The condition that stops a SQLite list query at its deadline (null on PostgreSQL). Marked
 * always true (`likelihood(…, 1.0)`): as a plain term SQLite's planner counted it as a filter
 * that drops rows, so walking a sort's index looked dearer, and `sort=name&tags=buyer&
 * assignedUserId=` sorted all of the agent's buyers (30,000 documents at 1M people, over the
 * budget: 503) instead of walking the name index (~3,000 people for a page).
 *
 * The clock is read for one person in 64 (those whose id ends in six zero bits; SQLite's OR
 * stops at its first true operand): each call crosses from SQLite into JavaScript, and for every
 * person it was 40 % of reading a page's ids (docs/performance-cpu.md, session 18). A runaway
 * query still stops within 64 people of its deadline.
 */
export function withinBudget(
  dialect: DialectName,
  /** epoch ms, or the placeholder of a query compiled once (filled with budgetDeadline's value) */
  deadline: number | string,
) {
  const value = typeof deadline === 'string' ? deadline : budgetDeadline(deadline);
  return dialect === 'sqlite'
    ? sql<SqlBool>`likelihood((people.id & 63) <> 0 or hearth_within_budget(${value}, people.id), 1.0)`
    : null;
}

/**
 * Runs a list request's queries under the budget. PostgreSQL: in a read transaction with a
 * `statement_timeout`, so a runaway query is cancelled by the server itself, and without
 * sequential scans (a list reads at most a page or a bounded total; the planner, assuming matches
 * spread evenly, scanned the table for `createdAfter=`: docs/performance.md), and on at most
 * HEARTH_LIST_CONCURRENCY connections (list-lanes.ts); SQLite: on the read
 * threads (read-threads.ts), off the event loop, with the queries carrying withinBudget. Either
 * way an over-budget query becomes the 503 of tooSlow.
 */
export async function underListBudget<T>(
  db: DbOrTrx,
  dialect: DialectName,
  budgetMs: number,
  run: (db: DbOrTrx, deadline: number) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + budgetMs;
  try {
    if (dialect === 'sqlite') return await run(heavyReadDbOf(db), deadline);
    if (db.isTransaction) return await run(db, deadline);
    return await inListLane(db, deadline, () =>
      db.transaction().execute(async (trx) => {
        await sql`select set_config('statement_timeout', ${String(budgetMs)}, true),
          set_config('enable_seqscan', 'off', true)`.execute(trx);
        return run(trx, deadline);
      }),
    );
  } catch (error) {
    // 57014: query_canceled, what statement_timeout raises.
    if ((error as { code?: string }).code === '57014') throw tooSlow();
    throw error;
  }
}
