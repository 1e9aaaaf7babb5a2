import type { Compilable } from 'kysely';
import type { DbOrTrx } from './database.js';
import { runsOnReadThreads, type SyncReader, syncReaderOf } from './connect.js';

/**
 * Exact list totals, reused while the database is unchanged. Counting a large account (100,000
 * people) costs SQLite several milliseconds, far more than the page itself, and clients re-list
 * far more often than the data changes. Any commit, by any connection, changes SQLite's
 * data_version and drops every remembered total. Inside a transaction, or on PostgreSQL, it counts.
 */
const MAX_REMEMBERED = 1000;

interface Remembered {
  version: number;
  totals: Map<string, number>;
}
const rememberedBy = new WeakMap<SyncReader, Remembered>();

export async function countRows(
  db: DbOrTrx,
  query: Compilable<{ total: number | string }>,
): Promise<number> {
  const reader = syncReaderOf(db);
  if (!reader) {
    const { rows } = await db.executeQuery(query.compile());
    return Number(rows[0]?.total ?? 0);
  }
  const { sql, parameters } = query.compile();
  const version = reader.dataVersion();
  let remembered = rememberedBy.get(reader);
  if (!remembered || remembered.version !== version) {
    remembered = { version, totals: new Map() };
    rememberedBy.set(reader, remembered);
  }
  const key = `${sql}\u0000${JSON.stringify(parameters)}`;
  const known = remembered.totals.get(key);
  if (known !== undefined) return known;
  // A count can read many rows: on a read thread when the handle has them, off the event loop.
  const row = runsOnReadThreads(db)
    ? (await db.executeQuery(query.compile())).rows[0]
    : reader.get(sql, parameters);
  const total = Number((row as { total: number | string } | undefined)?.total ?? 0);
  if (remembered.totals.size >= MAX_REMEMBERED) remembered.totals.clear();
  remembered.totals.set(key, total);
  return total;
}
