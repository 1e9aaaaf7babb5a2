import { sql } from 'kysely';
import type { DbOrTrx } from '../platform/db/database.js';
import type { AuthUser } from '../accounts/auth/authenticate.js';
import { seesWholeAccount } from '../access/roles.js';
import { isoSeconds } from '../platform/time.js';
import { leadCounts } from './reports.leads.js';
import type { Period } from './reports.period.js';
import '../timeline/tasks/tasks.tables.js';

/**
 * The agents of a team leader's day: Owner and Admin see every active user (a team's members
 * with `teamId`); anyone else the members of the teams they lead (none when they lead none).
 */
async function teamUsers(db: DbOrTrx, auth: AuthUser, teamId: number | undefined) {
  let members = db
    .selectFrom('team_members as tm')
    .innerJoin('teams', 'teams.id', 'tm.team_id')
    .select('tm.user_id')
    .where('teams.account_id', '=', auth.accountId);
  if (teamId !== undefined) members = members.where('tm.team_id', '=', teamId);
  if (!seesWholeAccount(auth))
    members = members.where('tm.team_id', 'in', (eb) =>
      eb.selectFrom('team_leaders').select('team_id').where('user_id', '=', auth.userId),
    );
  let users = db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('account_id', '=', auth.accountId)
    .where('deleted_at', 'is', null);
  if (teamId !== undefined || !seesWholeAccount(auth)) users = users.where('id', 'in', members);
  return users.orderBy('name').orderBy('id').execute();
}

/** Open tasks per assignee, overdue (due before today, UTC) and due today. */
async function openTasks(db: DbOrTrx, accountId: number, userIds: number[], today: string) {
  const rows = await db
    .selectFrom('tasks')
    .select([
      'assigned_user_id as userId',
      sql<number>`sum(case when due_date < ${today} then 1 else 0 end)`.as('overdue'),
      sql<number>`sum(case when due_date = ${today} then 1 else 0 end)`.as('today'),
    ])
    .where('account_id', '=', accountId)
    .where('assigned_user_id', 'in', userIds)
    .where('is_completed', '=', 0)
    .where('due_date', '<=', today)
    .groupBy('assigned_user_id')
    .execute();
  return new Map(
    rows.map((r) => [r.userId, { overdue: Number(r.overdue), today: Number(r.today) }]),
  );
}

/**
 * A team leader's day, per agent: the period's new leads nobody has contacted yet (from the
 * daily lead counters), open tasks overdue and due today.
 */
export async function teamDay(
  db: DbOrTrx,
  auth: AuthUser,
  period: Period,
  nowMs: number,
  teamId: number | undefined,
) {
  const users = await teamUsers(db, auth, teamId);
  const ids = users.map((u) => u.id);
  if (ids.length === 0) return { since: period.since, until: period.until, agents: [] };
  const today = isoSeconds(nowMs).slice(0, 10);
  const filters = { accountId: auth.accountId, userIds: ids, peopleColumn: 'user_id' as const };
  const [leads, tasks] = await Promise.all([
    leadCounts(db, filters, period, 'user'),
    openTasks(db, auth.accountId, ids, today),
  ]);
  return {
    since: period.since,
    until: period.until,
    agents: users.map((u) => {
      const l = leads.get(u.id);
      return {
        userId: u.id,
        name: u.name,
        newLeads: l?.leads ?? 0,
        uncontacted: l ? l.leads - l.contacted : 0,
        overdueTasks: tasks.get(u.id)?.overdue ?? 0,
        tasksDueToday: tasks.get(u.id)?.today ?? 0,
      };
    }),
  };
}
