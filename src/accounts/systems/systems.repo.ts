import type { DbOrTrx } from '../../platform/db/database.js';
import '../webhooks/webhooks.tables.js';

export interface SystemRow {
  id: number;
  name: string;
  created_at: string;
  webhooks: number | string | bigint | null;
}

/**
 * The installation's registered systems (the operator registers them once with `admin
 * create-system`; every account's integrations use the same ones), with the number of webhooks
 * each has registered in this account. Key hashes never leave this query.
 */
export function systemsWithWebhooks(db: DbOrTrx, accountId: number) {
  return db
    .selectFrom('systems as s')
    .select((eb) => [
      's.id as id',
      's.name as name',
      's.created_at as created_at',
      eb
        .selectFrom('webhooks as w')
        .select(eb.fn.countAll().as('n'))
        .where('w.account_id', '=', accountId)
        .whereRef('w.system', '=', 's.name')
        .as('webhooks'),
    ]);
}

export function findSystem(db: DbOrTrx, accountId: number, id: number) {
  return systemsWithWebhooks(db, accountId).where('s.id', '=', id).executeTakeFirst() as Promise<
    SystemRow | undefined
  >;
}

export function presentSystem(row: SystemRow) {
  return {
    id: row.id,
    name: row.name,
    created: row.created_at,
    webhooks: Number(row.webhooks ?? 0),
  };
}
