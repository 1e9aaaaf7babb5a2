import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { ActionPlanStepsTable } from './actionPlans.tables.js';
import './actionPlans.tables.js';
import { isoSeconds } from '../../platform/time.js';

const DAY_MS = 86_400_000;

/** A step falls due `delayDays` whole days after the plan was started for the person. */
export function stepDueAt(startedAt: string, delayDays: number): string {
  return isoSeconds(Date.parse(startedAt) + delayDays * DAY_MS);
}

type StepSchedule = Pick<ActionPlanStepsTable, 'delay_days'> & { id: number };

/** Steps of a plan in the order they run. */
export function planStepsQuery(db: DbOrTrx, accountId: number, actionPlanId: number) {
  return db
    .selectFrom('action_plan_steps')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('action_plan_id', '=', actionPlanId)
    .orderBy('position')
    .orderBy('id');
}

/** The first step (in order) that has not run for this person-plan, or null when all have. */
export async function nextPendingStep(
  trx: DbOrTrx,
  accountId: number,
  planPersonId: number,
  actionPlanId: number,
) {
  return planStepsQuery(trx, accountId, actionPlanId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('action_plan_step_runs as r')
            .select('r.id')
            .where('r.plan_person_id', '=', planPersonId)
            .whereRef('r.step_id', '=', 'action_plan_steps.id'),
        ),
      ),
    )
    .limit(1)
    .executeTakeFirst();
}

/**
 * When the engine should next look at a person-plan: the due time of its next pending step, or,
 * when none is left, its start (already past), so that the engine marks it Completed promptly.
 */
export function nextDueAt(startedAt: string, next: StepSchedule | undefined): string {
  return next ? stepDueAt(startedAt, next.delay_days) : startedAt;
}

/** Recomputes when a running or paused person-plan next needs the engine (after a resume or a change of steps). */
export async function refreshSchedule(
  trx: Trx,
  row: { id: number; account_id: number; action_plan_id: number; started_at: string },
): Promise<string> {
  const next = await nextPendingStep(trx, row.account_id, row.id, row.action_plan_id);
  const due = nextDueAt(row.started_at, next);
  await trx
    .updateTable('action_plans_people')
    .set({ next_due_at: due })
    .where('id', '=', row.id)
    .execute();
  return due;
}
