import type Database from 'better-sqlite3';
import { ApiError } from '../../http/errors.js';

/** The 503 of a list query stopped at its time budget (query-budget.ts). */
export function tooSlow(): ApiError {
  return new ApiError(
    503,
    'QUERY_TOO_SLOW',
    'This list took too long to read and was stopped. Narrow it: ' +
      'search with three characters or more, or add a filter such as tags, stage, assignedUserId ' +
      'or a date range',
  );
}

/**
 * The deadline as a query parameter: a bigint, a kind of parameter nothing else binds, so that the
 * count cache (count-cache.ts) can leave it out of its key: the same count a millisecond later is
 * the same count.
 */
export const budgetDeadline = (deadline: number): bigint => BigInt(deadline);
export const isBudgetDeadline = (parameter: unknown): parameter is bigint =>
  typeof parameter === 'bigint';

/**
 * SQLite: `hearth_within_budget(deadline, people.id)`, evaluated for one person in 64 a query looks
 * at (the column reference keeps SQLite from evaluating it once up front); past the deadline
 * (epoch ms) it throws, which aborts the statement. better-sqlite3 has no interrupt, and a
 * function that throws is its one way to stop a running statement.
 */
export function registerQueryBudget(connection: Database.Database): void {
  connection.function('hearth_within_budget', { deterministic: false }, (deadline, _row) => {
    if (Date.now() > Number(deadline)) throw tooSlow();
    return 1;
  });
}
