import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/database.js';
import type { AppContext } from '../../platform/context.js';

/**
 * A write transaction for the delivery worker. On SQLite every transaction starts with BEGIN
 * IMMEDIATE (src/platform/db/sqlite/group-commit.ts), so workers in several processes on one file queue for the
 * write lock (busy_timeout) instead of failing when a read snapshot turns into a write.
 */
export async function writeTransaction<T>(
  ctx: Pick<AppContext, 'db' | 'dialect'>,
  fn: (db: Kysely<DB>) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction().execute((trx) => fn(trx));
}
