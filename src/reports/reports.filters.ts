import type { DbOrTrx } from '../platform/db/database.js';
import type { AuthUser } from '../accounts/auth/authenticate.js';
import { reportScope } from '../access/reports.js';

/** Who and what a report counts, once the role's scope and the query's filters are combined. */
export interface ReportFilters {
  accountId: number;
  /** the users whose rows (and people) count; null: everyone */
  userIds: number[] | null;
  /** which of report_leads' columns ties people to those users */
  peopleColumn: 'user_id' | 'lender_id';
  source?: string;
}

const intersect = (a: number[] | null, b: number[] | null) =>
  a === null ? b : b === null ? a : a.filter((id) => b.includes(id));

/** The members of one of the account's teams (none when the team is not the account's). */
async function teamMembers(db: DbOrTrx, accountId: number, teamId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('team_members as tm')
    .innerJoin('teams', 'teams.id', 'tm.team_id')
    .select('tm.user_id')
    .where('teams.account_id', '=', accountId)
    .where('tm.team_id', '=', teamId)
    .execute();
  return rows.map((r) => r.user_id);
}

export async function reportFilters(
  db: DbOrTrx,
  auth: AuthUser,
  query: { userId?: number; teamId?: number; source?: string },
): Promise<ReportFilters> {
  const scope = reportScope(auth);
  let userIds: number[] | null = scope.userId === null ? null : [scope.userId];
  if (query.userId !== undefined) userIds = intersect(userIds, [query.userId]);
  if (query.teamId !== undefined)
    userIds = intersect(userIds, await teamMembers(db, auth.accountId, query.teamId));
  return {
    accountId: auth.accountId,
    userIds,
    peopleColumn: scope.peopleColumn ?? 'user_id',
    source: query.source,
  };
}
