import type { Static } from '@sinclair/typebox';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import { transactional } from '../../platform/db/transactional.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { assertPersonVisible } from '../../access/visibility.js';
import type { PlanPersonRow } from './actionPlans.presenter.js';
import { findPlan, findVisiblePlanPerson, visiblePlanPeople } from './actionPlans.repo.js';
import type { ActionPlanPersonListQuery } from './actionPlans.schemas.js';
import { setPlanPersonStatus, startOnPlan } from './actionPlans.service.js';

/**
 * Action plans applied to people. Everyone sees the runs of the people they may see; Owner, Admin
 * and Agents (on their own people) start, pause and resume them; Lenders only read.
 */

export function planPeopleList(
  db: DbOrTrx,
  auth: AuthUser,
  q: Static<typeof ActionPlanPersonListQuery>,
) {
  let query = visiblePlanPeople(db, auth);
  if (q.personId !== undefined) query = query.where('app.person_id', '=', q.personId);
  if (q.actionPlanId !== undefined) query = query.where('app.action_plan_id', '=', q.actionPlanId);
  if (q.status) query = query.where('app.status', '=', q.status);
  return query;
}

export async function getPlanPerson(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<PlanPersonRow> {
  const row = await findVisiblePlanPerson(db, auth, id);
  if (!row) throw notFound(`Action plan run ${id}`);
  return row;
}

/** Starts an active plan for a person the caller may see; returns the run's id. */
export const startPlanForPerson = transactional(
  async (trx: Trx, auth: AuthUser, personId: number, actionPlanId: number, at: string) => {
    await assertPersonVisible(trx, auth, personId);
    const plan = await findPlan(trx, auth.accountId, actionPlanId);
    if (!plan)
      throw badRequest(`No action plan ${actionPlanId} in this account`, [
        { field: 'actionPlanId', message: 'unknown action plan' },
      ]);
    if (plan.status !== 'Active')
      throw badRequest(
        `Action plan ${actionPlanId} is ${plan.status}; activate it before starting it`,
        [{ field: 'actionPlanId', message: 'inactive action plan' }],
      );
    const result = await startOnPlan(trx, auth.accountId, personId, actionPlanId, at, auth.userId);
    if (!result.started)
      throw conflict(
        `Person ${personId} is already on action plan ${actionPlanId} (actionPlansPeople ${result.id}); pause or resume that one`,
      );
    return result.id;
  },
);

/** Pauses or resumes a run the caller may see. */
export const changePlanPersonStatus = transactional(
  async (trx: Trx, auth: AuthUser, id: number, status: 'Running' | 'Paused', at: string) => {
    await getPlanPerson(trx, auth, id);
    await setPlanPersonStatus(trx, auth.accountId, id, status, at);
  },
);
