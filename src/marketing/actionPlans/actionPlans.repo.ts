import type { Insertable, Updateable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import { containsText } from '../../platform/db/text-match.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { visiblePersonIds } from '../../access/visibility.js';
import type { ActionPlanRow, PlanPersonRow, StepRow } from './actionPlans.presenter.js';
import type { ActionPlanStatus, ActionPlansTable } from './actionPlans.tables.js';
import './actionPlans.tables.js';

export function plansQuery(db: DbOrTrx, accountId: number) {
  return db.selectFrom('action_plans').selectAll().where('account_id', '=', accountId);
}

/** The account's plans, narrowed to a status and to names containing `name` when given. */
export function plansListQuery(
  db: DbOrTrx,
  accountId: number,
  filters: { status?: ActionPlanStatus; name?: string },
) {
  let query = plansQuery(db, accountId);
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.name) query = query.where(containsText('name', filters.name));
  return query;
}

export async function insertPlan(
  db: DbOrTrx,
  values: Insertable<ActionPlansTable>,
): Promise<number> {
  const row = await db
    .insertInto('action_plans')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePlan(
  db: DbOrTrx,
  id: number,
  changes: Updateable<ActionPlansTable>,
): Promise<void> {
  await db.updateTable('action_plans').set(changes).where('id', '=', id).execute();
}

export async function findPlan(
  db: DbOrTrx,
  accountId: number,
  id: number,
): Promise<ActionPlanRow | undefined> {
  return plansQuery(db, accountId).where('id', '=', id).executeTakeFirst();
}

/** Steps of several plans at once, grouped by plan, each group in run order. */
export async function stepsOfPlans(
  db: DbOrTrx,
  accountId: number,
  planIds: number[],
): Promise<Map<number, StepRow[]>> {
  const grouped = new Map<number, StepRow[]>(planIds.map((id) => [id, []]));
  if (planIds.length === 0) return grouped;
  const rows = await db
    .selectFrom('action_plan_steps')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('action_plan_id', 'in', planIds)
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const row of rows) grouped.get(row.action_plan_id)?.push(row);
  return grouped;
}

/** Person-plans of the people `auth` may see, with the plan's name and how many steps have run. */
export function visiblePlanPeople(db: DbOrTrx, auth: AuthUser) {
  return db
    .selectFrom('action_plans_people as app')
    .innerJoin('action_plans as plan', 'plan.id', 'app.action_plan_id')
    .selectAll('app')
    .select((eb) => [
      'plan.name as action_plan_name',
      eb
        .selectFrom('action_plan_step_runs as r')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('r.plan_person_id', '=', 'app.id')
        .as('steps_completed'),
    ])
    .where('app.account_id', '=', auth.accountId)
    .where('app.person_id', 'in', visiblePersonIds(db, auth));
}

export async function findVisiblePlanPerson(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<PlanPersonRow | undefined> {
  return (await visiblePlanPeople(db, auth).where('app.id', '=', id).executeTakeFirst()) as
    PlanPersonRow | undefined;
}
