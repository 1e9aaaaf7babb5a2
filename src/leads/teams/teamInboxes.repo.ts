import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { canSeeTeamInbox } from '../../access/visibility.js';
import { teamsOf } from './teams.repo.js';
import '../ponds/ponds.tables.js';

export interface InboxUser {
  id: number;
  name: string;
  firstName: string;
  lastName: string;
}

/** The teams whose inbox the caller sees (every team for Owner/Admin, else their own). */
export function visibleTeamInboxes(db: DbOrTrx, auth: AuthUser) {
  return teamsOf(db, auth.accountId).where((eb) => canSeeTeamInbox(eb, auth));
}

/**
 * The users of several teams' inboxes at once (members and leaders, active users only), by team
 * id, ordered by user id.
 */
export async function inboxUsersOf(
  db: DbOrTrx,
  accountId: number,
  teamIds: number[],
): Promise<Map<number, InboxUser[]>> {
  const byTeam = new Map<number, InboxUser[]>(teamIds.map((id) => [id, []]));
  if (teamIds.length === 0) return byTeam;
  const lists = db
    .selectFrom('team_members')
    .select(['team_id', 'user_id'])
    .where('team_id', 'in', teamIds)
    .union(
      db.selectFrom('team_leaders').select(['team_id', 'user_id']).where('team_id', 'in', teamIds),
    );
  const rows = await db
    .selectFrom(lists.as('l'))
    .innerJoin('users', 'users.id', 'l.user_id')
    .select(['l.team_id', 'users.id', 'users.name', 'users.first_name', 'users.last_name'])
    .where('users.account_id', '=', accountId)
    .where('users.deleted_at', 'is', null)
    .orderBy('l.team_id')
    .orderBy('users.id')
    .execute();
  for (const row of rows)
    byTeam.get(row.team_id)?.push({
      id: row.id,
      name: row.name,
      firstName: row.first_name ?? '',
      lastName: row.last_name ?? '',
    });
  return byTeam;
}
