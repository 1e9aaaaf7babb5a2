import { CompiledQuery, type Compilable } from 'kysely';
import type { DbOrTrx } from './database.js';
import { syncReaderOf } from './connect.js';

const MARKER = '\u0000hearth-arg-';

interface Compiled {
  sql: string;
  /** per SQL parameter: the index of the argument that fills it, or -1 for a constant */
  slots: number[];
  constants: readonly unknown[];
}

/**
 * Kysely builds and compiles a query on every call; for the hottest reads (the key lookup of every
 * request, a person by id) that costs more than SQLite's own work. This compiles each query shape
 * once per dialect and reuses its SQL with the new values. `build` must use its arguments only as
 * values, never to choose the query's shape: a shape that varies goes in `shape`.
 */
export function reusableQuery<A extends (string | number)[], Row>(build: (db: DbOrTrx, shape: string, ...args: A) => Compilable<Row>) {
  const compiled = new Map<string, Compiled>();
  return async (db: DbOrTrx, shape: string, ...args: A): Promise<Row | undefined> => {
    const key = `${db.getExecutor().adapter.constructor.name}:${shape}`;
    let entry = compiled.get(key);
    if (!entry) {
      const markers = args.map((_, i) => `${MARKER}${i}`) as A;
      const query = build(db, shape, ...markers).compile();
      const slots = query.parameters.map((p) => (typeof p === 'string' && p.startsWith(MARKER) ? Number(p.slice(MARKER.length)) : -1));
      entry = { sql: query.sql, slots, constants: query.parameters };
      compiled.set(key, entry);
    }
    const parameters = entry.slots.map((slot, i) => (slot === -1 ? entry!.constants[i] : args[slot]));
    // Outside a transaction on SQLite: the read connection answers at once (see syncReaderOf).
    const reader = syncReaderOf(db);
    if (reader) return reader.get(entry.sql, parameters) as Row | undefined;
    const result = await db.executeQuery<Row>(CompiledQuery.raw(entry.sql, parameters));
    return result.rows[0];
  };
}
