import { sql } from 'kysely';
import type { DB, DbOrTrx } from './database.js';

/** Tables whose rows belong to an account and are known by an id. */
export type AccountRowTable = {
  [K in keyof DB]: DB[K] extends { account_id: unknown; id: unknown } ? K : never;
}[keyof DB];

/** Deletes one record of the account; false when the account has no such record. */
export async function deleteAccountRow(
  db: DbOrTrx,
  table: AccountRowTable,
  accountId: number,
  id: number,
): Promise<boolean> {
  const deleted =
    await sql`delete from ${sql.table(table)} where account_id = ${accountId} and id = ${id}`.execute(
      db,
    );
  return Number(deleted.numAffectedRows ?? 0) > 0;
}
