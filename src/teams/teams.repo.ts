import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
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

/** The teams each of these users leads (users' `teamLeaderOf`). */
export async function teamsLedBy(db: DbOrTrx, userIds: number[]): Promise<Map<number, number[]>> {
  const led = new Map<number, number[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return led;
  const rows = await db
    .selectFrom('team_leaders')
    .select(['user_id', 'team_id'])
    .where('user_id', 'in', userIds)
    .orderBy('team_id')
    .execute();
  for (const row of rows) led.get(row.user_id)?.push(row.team_id);
  return led;
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
