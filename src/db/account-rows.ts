import type { DbOrTrx } from './database.js';
import '../actionPlans/actionPlans.tables.js';
import '../groups/groups.tables.js';
import '../leadFlows/leadFlows.tables.js';

/** Tables of records that belong to an account, deleted by id with nothing else to clean up. */
export type AccountRowTable = 'action_plans' | 'lead_flows' | 'user_groups';

/** Deletes one record of the account; false when the account has no such record. */
export async function deleteAccountRow(
  db: DbOrTrx,
  table: AccountRowTable,
  accountId: number,
  id: number,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom(table)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
