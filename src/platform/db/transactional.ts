import type { Db, Trx } from './database.js';

/**
 * A write that owns its transaction: `transactional(write)(db, …args)` runs `write(trx, …args)`
 * in a transaction of its own, so a service exports one entry point and routes never open one.
 */
export function transactional<A extends unknown[], R>(
  write: (trx: Trx, ...args: A) => Promise<R>,
): (db: Db, ...args: A) => Promise<R> {
  return (db, ...args) => db.transaction().execute((trx) => write(trx, ...args));
}
