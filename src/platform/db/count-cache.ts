import type { Compilable } from 'kysely';
import type { DbOrTrx } from './database.js';
import { runsOnReadThreads, syncReaderOf } from './hearth-db.js';
import { rememberKey } from './remembered-reads.js';

/**
 * Exact list totals, reused while the database is unchanged. Counting a large account (100,000
 * people) costs SQLite several milliseconds, far more than the page itself, and clients re-list
 * far more often than the data changes. Any commit that may change content (content-version.ts:
 * every write but audit rows, job claims and outbox marks), by any connection, drops every
 * remembered total (remembered-reads.ts). Inside a transaction, or on PostgreSQL, it counts.
 * On the read threads the connection's own memory keeps the total with the rest it reads.
 */
const MAX_REMEMBERED = 1000;

export async function countRows(
  db: DbOrTrx,
  query: Compilable<{ total: number | string }>,
): Promise<number> {
  const reader = syncReaderOf(db);
  const compiled = query.compile();
  // On the read threads the connection remembers what it reads (read-threads.ts), totals too.
  if (!reader || runsOnReadThreads(db)) {
    const { rows } = await db.executeQuery(compiled);
    return Number(rows[0]?.total ?? 0);
  }
  const { sql, parameters } = compiled;
  const { totals } = reader.remembered();
  const key = rememberKey(sql, parameters, reader.bookkeepingVersion);
  const known = totals.get(key);
  if (known !== undefined) return known;
  const row = reader.get(sql, parameters) as { total: number | string } | undefined;
  const total = Number(row?.total ?? 0);
  if (totals.size >= MAX_REMEMBERED) totals.clear();
  totals.set(key, total);
  return total;
}
