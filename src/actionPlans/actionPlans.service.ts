import type { Trx } from '../db/database.js';
import { nextDueAt, planStepsQuery } from './actionPlans.schedule.js';
import './actionPlans.tables.js';

export interface StartedActionPlan {
  /** id of the actionPlansPeople record */
  id: number;
  /** false when the person was already on this plan (Running or Paused): nothing new was started */
  started: boolean;
}

/**
 * Puts a person on an action plan from `at` (ISO 8601 UTC): step N falls due `delayDays` after it,
 * and the background engine carries each step out once. Runs in the caller's transaction.
 *
 * Returns null (and starts nothing) when the plan is not in the account or is Inactive, or the
 * person is not in the account. A person already Running or Paused on the plan is left as is.
 * Called by POST /v1/events when the source's lead flow names a plan: keep this signature stable.
 */
export async function startActionPlan(
  trx: Trx,
  accountId: number,
  personId: number,
  actionPlanId: number,
  at: string,
): Promise<StartedActionPlan | null> {
  const plan = await trx
    .selectFrom('action_plans')
    .select(['id', 'status'])
    .where('account_id', '=', accountId)
    .where('id', '=', actionPlanId)
    .executeTakeFirst();
  if (!plan || plan.status !== 'Active') return null;
  const person = await trx.selectFrom('people').select('id').where('account_id', '=', accountId).where('id', '=', personId).executeTakeFirst();
  if (!person) return null;
  return startOnPlan(trx, accountId, personId, actionPlanId, at, null);
}

/** Inserts the person-plan; the partial unique index keeps one Running/Paused run per person and plan. */
export async function startOnPlan(
  trx: Trx,
  accountId: number,
  personId: number,
  actionPlanId: number,
  at: string,
  createdById: number | null,
): Promise<StartedActionPlan> {
  const existing = () =>
    trx
      .selectFrom('action_plans_people')
      .select('id')
      .where('person_id', '=', personId)
      .where('action_plan_id', '=', actionPlanId)
      .where('status', 'in', ['Running', 'Paused'])
      .executeTakeFirst();
  const already = await existing();
  if (already) return { id: already.id, started: false };
  const first = await planStepsQuery(trx, accountId, actionPlanId).select('id').limit(1).executeTakeFirst();
  const inserted = await trx
    .insertInto('action_plans_people')
    .values({
      account_id: accountId,
      person_id: personId,
      action_plan_id: actionPlanId,
      status: 'Running',
      started_at: at,
      next_due_at: nextDueAt(at, first),
      completed_at: null,
      created_by_id: createdById,
      created_at: at,
      updated_at: at,
    })
    // A concurrent start of the same plan for the same person lost the race: use the winner's row.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, started: true };
  const winner = await existing();
  if (!winner) throw new Error('action plan start conflicted but no active run was found');
  return { id: winner.id, started: false };
}
