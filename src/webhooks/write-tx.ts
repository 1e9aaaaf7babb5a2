import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/database.js';
import type { AppContext } from '../context.js';

/**
 * A write transaction for the delivery worker. On SQLite it starts with BEGIN IMMEDIATE so that
 * workers in several processes on one file queue for the write lock (busy_timeout) instead of
 * failing when a read snapshot turns into a write; on PostgreSQL it is a plain transaction.
 */
export async function writeTransaction<T>(ctx: Pick<AppContext, 'db' | 'dialect'>, fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (ctx.dialect === 'postgres') return ctx.db.transaction().execute((trx) => fn(trx));
  return ctx.db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw err;
    }
  });
}
