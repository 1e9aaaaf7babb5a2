import type { Trx } from '../../platform/db/database.js';
import { reusableWrite } from '../../platform/db/reusable-query.js';

/** Marks an interaction on a person's timeline. */
export async function touchLastActivity(
  trx: Trx,
  accountId: number,
  personId: number,
  at: string,
): Promise<void> {
  await lastActivityUpdate(trx, 'touch', at, accountId, personId);
}

const lastActivityUpdate = reusableWrite(
  (db, _shape, at: string, accountId: number, personId: number) =>
    db
      .updateTable('people')
      .set({ last_activity: at })
      .where('account_id', '=', accountId)
      .where('id', '=', personId)
      .where((eb) => eb.or([eb('last_activity', 'is', null), eb('last_activity', '<', at)])),
);
