import { isBudgetDeadline } from './sqlite/budget-function.js';
import { readsBookkeeping } from './sqlite/content-version.js';

/**
 * SQLite: what the people list read at the current content version (content-version.ts), kept
 * until a commit that may change content, by this process or another. Clients list far more often
 * than the data changes (the web app's list, an assistant's searches, several agents on one view),
 * and the same SQL with the same values over the same committed data reads the same rows.
 * HEARTH_DB_SHORTCUTS=compiled or off remembers nothing (for measuring what this buys).
 */
export interface RememberedReads {
  /** list totals by query (count-cache.ts) */
  totals: Map<string, number>;
  /** rows of the list's queries and of single reads by query (read-threads.ts, readAtOnce) */
  rows: RowMemory;
}

/** Results read by more rows than this are read again each time (no list page is near it). */
const MAX_RESULT_ROWS = 1000;
/** All remembered rows of one version together, about 15 MB of people documents at most. */
const MAX_ROWS = 20_000;

/** Query results, frozen: every caller is handed the same row objects. */
export class RowMemory {
  readonly #results = new Map<string, readonly unknown[]>();
  #rows = 0;

  get(key: string): readonly unknown[] | undefined {
    return this.#results.get(key);
  }

  set(key: string, rows: unknown[]): void {
    if (rows.length > MAX_RESULT_ROWS) return;
    if (this.#rows + rows.length > MAX_ROWS) {
      this.#results.clear();
      this.#rows = 0;
    }
    for (const row of rows) Object.freeze(row);
    this.#results.set(key, Object.freeze(rows));
    this.#rows += rows.length;
  }
}

/** Short names of the SQL texts remembered (never reused: a name stands for one text only). */
const sqlNames = new Map<string, string>();
const MAX_SQL_NAMES = 2000;
let nextSqlName = 0;

/**
 * A query's SQL as a short name, with whether it reads a bookkeeping table. The texts are long (a
 * person's document is several KB): hashing one into every key, and testing it for bookkeeping
 * tables, cost more than the memory saved. A compiled query's text is the same string each time,
 * whose hash the engine keeps, so finding its name is cheap.
 */
function sqlNameOf(sql: string): string {
  let name = sqlNames.get(sql);
  if (name === undefined) {
    if (sqlNames.size >= MAX_SQL_NAMES) sqlNames.delete(sqlNames.keys().next().value as string);
    name = `${(nextSqlName += 1)}${readsBookkeeping(sql) ? 'b' : ''}`;
    sqlNames.set(sql, name);
  }
  return name;
}

const withoutDeadline = (_key: string, value: unknown) => (isBudgetDeadline(value) ? 0 : value);

/**
 * The key of a query's result: its SQL and values, without the list's time budget (a new deadline
 * every request, query-budget.ts), and with the bookkeeping version when it reads a bookkeeping
 * table, whose writes do not move the content version.
 */
export function rememberKey(
  sql: string,
  parameters: readonly unknown[],
  bookkeepingVersion: () => number,
): string {
  const name = sqlNameOf(sql);
  const values = parameters.some(isBudgetDeadline)
    ? JSON.stringify(parameters, withoutDeadline)
    : JSON.stringify(parameters);
  const key = `${name}\u0000${values}`;
  return name.endsWith('b') ? `${key}\u0000${bookkeepingVersion()}` : key;
}

/** What remembering needs of the read connection (hearth-db.ts SyncReader). */
interface RememberingReader {
  remembered(): RememberedReads;
  bookkeepingVersion(): number;
  get(sql: string, parameters: readonly unknown[]): unknown;
  all(sql: string, parameters: readonly unknown[]): unknown[];
}

/**
 * A query's remembered rows at the current content version, if any, and how to keep what it read.
 * The version is the one current when the query began: a result that raced a commit is kept only
 * where no later request looks.
 */
export function recall(reader: RememberingReader, sql: string, parameters: readonly unknown[]) {
  const memory = reader.remembered().rows;
  const key = rememberKey(sql, parameters, reader.bookkeepingVersion);
  return { known: memory.get(key), keep: (rows: unknown[]) => memory.set(key, rows) };
}

/**
 * A read known to be small (a list page read in index order, a total capped at EXACT_TOTAL_LIMIT)
 * on the read connection, at once: a round trip to a read thread costs 75–160 µs of CPU, about
 * what such a read costs SQLite (docs/performance-cpu.md). Remembered as the read threads' reads are.
 */
export function readAtOnce(reader: RememberingReader, sql: string, parameters: readonly unknown[]) {
  const { known, keep } = recall(reader, sql, parameters);
  if (known) return known.slice();
  const rows = reader.all(sql, parameters);
  keep(rows);
  return rows.slice();
}

/**
 * One row (or none) on the read connection, remembered as readAtOnce's are: a person's document
 * by id, which the web app, assistants and integrations read again far more often than it changes
 * (docs/performance-cpu.md). The row is frozen and shared by every caller.
 */
export function readOneAtOnce(
  reader: RememberingReader,
  sql: string,
  parameters: readonly unknown[],
): unknown {
  const { known, keep } = recall(reader, sql, parameters);
  if (known) return known[0];
  const row = reader.get(sql, parameters);
  keep(row === undefined ? [] : [row]);
  return row;
}
