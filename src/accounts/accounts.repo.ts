import type { DbOrTrx } from '../platform/db/database.js';

export interface AccountRow {
  id: number;
  name: string;
}

export function findAccount(db: DbOrTrx, accountId: number): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('id', '=', accountId)
    .executeTakeFirst();
}
