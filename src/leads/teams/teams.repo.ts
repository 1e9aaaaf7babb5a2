import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { TeamsTable } from '../ponds/ponds.tables.js';
import '../ponds/ponds.tables.js';

export type TeamRow = Selectable<TeamsTable>;

export function teamsOf(db: DbOrTrx, accountId: number) {
  return db.selectFrom('teams').selectAll().where('account_id', '=', accountId);
}

export async function findTeam(
  db: DbOrTrx,
  accountId: number,
  id: number,
): Promise<TeamRow | undefined> {
  return teamsOf(db, accountId).where('id', '=', id).executeTakeFirst();
}

export function presentTeam(row: TeamRow, userIds: number[], leaderIds: number[]) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    userIds,
    leaderIds,
  };
}
