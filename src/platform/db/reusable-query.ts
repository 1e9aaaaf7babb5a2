import { CompiledQuery, type Compilable, type Insertable } from 'kysely';
import type { DB, DbOrTrx } from './database.js';
import { compilesOnce, syncReaderOf } from './hearth-db.js';
import { readOneAtOnce } from './remembered-reads.js';

const MARKER = '\u0000hearth-arg-';

/** Shapes vary with input (one per number of emails or rows): keep the most recent ones. */
const MAX_SHAPES = 500;
function remember<V>(shapes: Map<string, V>, key: string, value: V): void {
  if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value as string);
  shapes.set(key, value);
}

interface Compiled {
  sql: string;
  /** per SQL parameter: the index of the argument that fills it, or -1 for a constant */
  slots: number[];
  constants: readonly unknown[];
}

type Argument = string | number | null;
/** A value filled into a compiled query (bigint: the list's time budget, query-budget.ts). */
export type QueryArgument = Argument | bigint;

/** Placeholders for `count` arguments: a query built with them compiles to reusable slots. */
const markersFor = (count: number) => Array.from({ length: count }, (_, i) => `${MARKER}${i}`);

function compiledWithMarkers(query: Compilable<unknown>): Compiled {
  const { sql, parameters } = query.compile();
  const slots = parameters.map((p) =>
    typeof p === 'string' && p.startsWith(MARKER) ? Number(p.slice(MARKER.length)) : -1,
  );
  return { sql, slots, constants: parameters };
}

const parametersOf = ({ slots, constants }: Compiled, args: readonly QueryArgument[]) =>
  slots.map((slot, i) => (slot === -1 ? constants[i] : args[slot]));

/** Compiles each shape of a query once per dialect; returns it filled with the call's values. */
function compiledOnce<A extends Argument[]>(
  build: (db: DbOrTrx, shape: string, ...args: A) => Compilable<unknown>,
) {
  const compiled = new Map<string, Compiled>();
  return (db: DbOrTrx, shape: string, args: A): { sql: string; parameters: unknown[] } => {
    const key = `${db.getExecutor().adapter.constructor.name}:${shape}`;
    const cached = compilesOnce(db);
    let entry = cached ? compiled.get(key) : undefined;
    if (!entry) {
      entry = compiledWithMarkers(build(db, shape, ...(markersFor(args.length) as A)));
      if (cached) remember(compiled, key, entry);
    }
    return { sql: entry.sql, parameters: parametersOf(entry, args) };
  };
}

/**
 * Several queries compiled together once per shape (a list's page and its total): `build` runs
 * on a shape's first call, with placeholders for `args`, which it must use only as values; every
 * call gets the queries filled with its own args. `shape` names everything else that changes the
 * SQL (the caller's typed plan, written as a key).
 */
export function compiledShapes() {
  const shapes = new Map<string, Compiled[]>();
  return (
    db: DbOrTrx,
    shape: string,
    args: readonly QueryArgument[],
    build: (placeholders: string[]) => Compilable<unknown>[],
  ): CompiledQuery[] => {
    const key = `${db.getExecutor().adapter.constructor.name}:${shape}`;
    const cached = compilesOnce(db);
    let entries = cached ? shapes.get(key) : undefined;
    if (!entries) {
      entries = build(markersFor(args.length)).map(compiledWithMarkers);
      if (cached) remember(shapes, key, entries);
    }
    return entries.map((entry) => CompiledQuery.raw(entry.sql, parametersOf(entry, args)));
  };
}

/**
 * Kysely builds and compiles a query on every call; for the hottest reads (the key lookup of every
 * request, a person by id) that costs more than SQLite's own work. This compiles each query shape
 * once per dialect and reuses its SQL with the new values. `build` must use its arguments only as
 * values, never to choose the query's shape: a shape that varies goes in `shape`.
 */
export function reusableQuery<A extends Argument[], Row>(
  build: (db: DbOrTrx, shape: string, ...args: A) => Compilable<Row>,
  options: {
    /**
     * SQLite, outside a transaction: the row is remembered until a commit may have changed
     * content (remembered-reads.ts), and every caller gets the same frozen row.
     */
    remembered?: boolean;
  } = {},
) {
  const fill = compiledOnce(build);
  return async (db: DbOrTrx, shape: string, ...args: A): Promise<Row | undefined> => {
    const { sql, parameters } = fill(db, shape, args);
    // Outside a transaction on SQLite: the read connection answers at once (see syncReaderOf).
    const reader = compilesOnce(db) ? syncReaderOf(db) : undefined;
    if (reader && options.remembered) return readOneAtOnce(reader, sql, parameters) as Row;
    if (reader) return reader.get(sql, parameters) as Row | undefined;
    const result = await db.executeQuery<Row>(CompiledQuery.raw(sql, parameters));
    return result.rows[0];
  };
}

/**
 * The same for the updates and deletes of the hottest writes (a lead event's person update, its
 * lastActivity, lookup-row deletes): compiled once per shape, run on `db` (usually a transaction).
 * Resolves to the number of rows changed.
 */
export function reusableWrite<A extends Argument[]>(
  build: (db: DbOrTrx, shape: string, ...args: A) => Compilable<unknown>,
) {
  const fill = compiledOnce(build);
  return async (db: DbOrTrx, shape: string, ...args: A): Promise<number> => {
    const { sql, parameters } = fill(db, shape, args);
    const result = await db.executeQuery(CompiledQuery.raw(sql, parameters));
    return Number(result.numAffectedRows ?? 0);
  };
}

interface CompiledInsert {
  sql: string;
  /** per SQL parameter: the index of the value (row-major over the columns) that fills it */
  slots: number[];
}
const compiledInserts = new Map<string, CompiledInsert>();

export interface InsertOptions {
  /** a column to return for each inserted row (RETURNING) */
  returning?: string;
  /** ON CONFLICT (these columns) DO NOTHING */
  onConflictDoNothing?: readonly string[];
}

/**
 * `insert into table (…) values (…), …` for the inserts of the hottest writes (a lead event inserts
 * into seven tables), where compiling each call cost about what storing the row did. Here Kysely compiles each shape once (dialect, table, columns, row
 * count, options), and later calls reuse the SQL with their own values. As with Kysely, a column
 * whose value is undefined is left out; every row must give the same columns.
 */
export async function insertRows<T extends keyof DB & string>(
  db: DbOrTrx,
  table: T,
  rows: readonly Insertable<DB[T]>[],
  options: InsertOptions = {},
): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]).filter(
    (column) => (rows[0] as Record<string, unknown>)[column] !== undefined,
  );
  const values: unknown[] = [];
  for (const row of rows as readonly Record<string, unknown>[]) {
    let defined = 0;
    for (const column in row) if (row[column] !== undefined) defined += 1;
    for (const column of columns) {
      const value = row[column];
      if (value === undefined) defined = -1;
      values.push(value);
    }
    if (defined !== columns.length)
      throw new Error(`insertRows(${table}): every row must give the same columns`);
  }
  const key = `${db.getExecutor().adapter.constructor.name}|${table}|${columns.join(',')}|${rows.length}|${options.returning ?? ''}|${options.onConflictDoNothing?.join(',') ?? ''}`;
  const cached = compilesOnce(db);
  let entry = cached ? compiledInserts.get(key) : undefined;
  if (!entry) {
    const markerRows = rows.map((_, r) =>
      Object.fromEntries(
        columns.map((column, c) => [column, `${MARKER}${r * columns.length + c}`]),
      ),
    );
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let query: any = db.insertInto(table).values(markerRows as never);
    if (options.onConflictDoNothing) {
      const conflictColumns = options.onConflictDoNothing;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      query = query.onConflict((oc: any) => oc.columns(conflictColumns).doNothing());
    }
    if (options.returning) query = query.returning(options.returning);
    const compiled = (query as Compilable<unknown>).compile();
    const slots = compiled.parameters.map((p) => {
      if (typeof p !== 'string' || !p.startsWith(MARKER))
        throw new Error(`insertRows(${table}): unexpected constant in the compiled insert`);
      return Number(p.slice(MARKER.length));
    });
    entry = { sql: compiled.sql, slots };
    if (cached) remember(compiledInserts, key, entry);
  }
  const parameters = entry.slots.map((slot) => values[slot]);
  const result = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(entry.sql, parameters),
  );
  return result.rows;
}
