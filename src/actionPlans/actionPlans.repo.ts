import type { DbOrTrx } from '../db/database.js';
import type { AuthUser } from '../http/auth.js';
import { visiblePersonIds } from '../people/people.access.js';
import type { ActionPlanRow, PlanPersonRow, StepRow } from './actionPlans.presenter.js';
import './actionPlans.tables.js';

export function plansQuery(db: DbOrTrx, accountId: number) {
  return db.selectFrom('action_plans').selectAll().where('account_id', '=', accountId);
}

export async function findPlan(db: DbOrTrx, accountId: number, id: number): Promise<ActionPlanRow | undefined> {
  return plansQuery(db, accountId).where('id', '=', id).executeTakeFirst();
}

/** Steps of several plans at once, grouped by plan, each group in run order. */
export async function stepsOfPlans(db: DbOrTrx, accountId: number, planIds: number[]): Promise<Map<number, StepRow[]>> {
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

export async function findVisiblePlanPerson(db: DbOrTrx, auth: AuthUser, id: number): Promise<PlanPersonRow | undefined> {
  return (await visiblePlanPeople(db, auth).where('app.id', '=', id).executeTakeFirst()) as PlanPersonRow | undefined;
}
