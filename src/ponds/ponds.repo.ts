import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { PondsTable } from './ponds.tables.js';
import './ponds.tables.js';

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

export function presentPond(row: PondRow, userIds: number[]) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    userId: row.user_id,
    userIds,
  };
}
