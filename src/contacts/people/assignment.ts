// A person is assigned to an agent or to a pond (ponds are managed in leads/ponds/). These lookups
// sit below leads/ so that people, and everything that resolves a person's agent, can use them.
import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { PondsTable } from '../../leads/ponds/ponds.tables.js';

export type PondRow = Selectable<PondsTable>;

export function pondsOf(db: DbOrTrx, accountId: number) {
  return db.selectFrom('ponds').selectAll().where('account_id', '=', accountId);
}

export async function findPond(
  db: DbOrTrx,
  accountId: number,
  id: number,
): Promise<PondRow | undefined> {
  return pondsOf(db, accountId).where('id', '=', id).executeTakeFirst();
}

/**
 * The agent responsible for a person: the assigned agent, else the lead agent of the person's
 * pond (who stands in for notifications and action plan tasks), else null.
 */
export async function responsibleAgentId(
  db: DbOrTrx,
  accountId: number,
  person: { assignedUserId: number | null; assignedPondId: number | null },
): Promise<number | null> {
  if (person.assignedUserId !== null) return person.assignedUserId;
  if (person.assignedPondId === null) return null;
  return (await findPond(db, accountId, person.assignedPondId))?.user_id ?? null;
}
