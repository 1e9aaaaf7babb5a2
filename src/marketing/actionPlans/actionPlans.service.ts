import type { Static } from '@sinclair/typebox';
import type { Db, Trx } from '../../platform/db/database.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { forgetActionPlan } from '../../leads/leadFlows/leadFlows.repo.js';
import { deleteAccountRow } from '../../platform/db/account-rows.js';
import { findPlan, insertPlan, updatePlan } from './actionPlans.repo.js';
import { nextDueAt, planStepsQuery, refreshSchedule } from './actionPlans.schedule.js';
import type {
  ActionPlanCreateBody,
  ActionPlanUpdateBody,
  StepInput as StepInputSchema,
} from './actionPlans.schemas.js';
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
  const person = await trx
    .selectFrom('people')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', personId)
    .executeTakeFirst();
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
  const first = await planStepsQuery(trx, accountId, actionPlanId)
    .select('id')
    .limit(1)
    .executeTakeFirst();
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

type StepInput = Static<typeof StepInputSchema>;

const TEMPLATE_KIND = { email: 'email', text: 'text' } as const;

/** Checks one step's fields against its kind; throws 400 naming the step. */
function checkStepFields(step: StepInput, i: number): void {
  const field = (name: string) => `steps[${i}].${name}`;
  if (step.kind === 'task') {
    if (!step.taskName?.trim())
      throw badRequest(`A task step needs 'taskName' (step ${i + 1})`, [
        { field: field('taskName'), message: 'required for a task step' },
      ]);
    if (step.templateId !== undefined)
      throw badRequest(`A task step takes no 'templateId' (step ${i + 1})`, [
        { field: field('templateId'), message: 'only for email and text steps' },
      ]);
    return;
  }
  if (step.templateId === undefined)
    throw badRequest(`An ${step.kind} step needs 'templateId' (step ${i + 1})`, [
      { field: field('templateId'), message: `required for an ${step.kind} step` },
    ]);
  if (step.taskName !== undefined || step.taskType !== undefined) {
    throw badRequest(`An ${step.kind} step takes no 'taskName' or 'taskType' (step ${i + 1})`, [
      { field: field('taskName'), message: 'only for task steps' },
    ]);
  }
}

/** Checks steps against their kind and the account's templates of that kind. */
async function checkSteps(trx: Trx, accountId: number, steps: StepInput[]): Promise<void> {
  steps.forEach(checkStepFields);
  for (const kind of ['email', 'text'] as const) {
    const ids = new Set(steps.filter((s) => s.kind === kind).map((s) => s.templateId!));
    if (ids.size === 0) continue;
    const found = await trx
      .selectFrom('templates')
      .select('id')
      .where('account_id', '=', accountId)
      .where('kind', '=', TEMPLATE_KIND[kind])
      .where('id', 'in', [...ids])
      .execute();
    const missing = [...ids].filter((id) => !found.some((t) => t.id === id));
    const noun = kind === 'email' ? 'template' : 'text message template';
    if (missing.length)
      throw badRequest(`No ${noun} ${missing.join(', ')} in this account`, [
        { field: 'steps.templateId', message: `unknown ${noun}` },
      ]);
  }
}

function stepColumns(step: StepInput, index: number) {
  return {
    position: step.order ?? index + 1,
    delay_days: step.delayDays,
    kind: step.kind,
    task_type: step.kind === 'task' ? (step.taskType ?? 'Follow Up') : null,
    task_name: step.kind === 'task' ? step.taskName!.trim() : null,
    template_id: step.kind === 'task' ? null : step.templateId!,
  };
}

/**
 * Makes a plan's steps equal to `steps`: those with an id are updated in place (so what already
 * ran for people stays recorded), those without are created, the others removed. Then every
 * running or paused person-plan is rescheduled against the new steps.
 */
export async function replaceSteps(
  trx: Trx,
  accountId: number,
  actionPlanId: number,
  steps: StepInput[],
  isNewPlan: boolean,
): Promise<void> {
  await checkSteps(trx, accountId, steps);
  const existing = isNewPlan
    ? []
    : await planStepsQuery(trx, accountId, actionPlanId).select('id').execute();
  const keep = new Set<number>();
  steps.forEach((step, i) => {
    if (step.id === undefined) return;
    if (!existing.some((e) => e.id === step.id))
      throw badRequest(`Step ${step.id} is not a step of action plan ${actionPlanId}`, [
        { field: `steps[${i}].id`, message: 'unknown step' },
      ]);
    if (keep.has(step.id))
      throw badRequest(`Step ${step.id} is listed twice`, [
        { field: `steps[${i}].id`, message: 'duplicate step' },
      ]);
    keep.add(step.id);
  });
  const removed = existing.map((e) => e.id).filter((id) => !keep.has(id));
  if (removed.length)
    await trx.deleteFrom('action_plan_steps').where('id', 'in', removed).execute();
  for (const [i, step] of steps.entries()) {
    if (step.id !== undefined) {
      await trx
        .updateTable('action_plan_steps')
        .set(stepColumns(step, i))
        .where('id', '=', step.id)
        .execute();
    } else {
      await trx
        .insertInto('action_plan_steps')
        .values({ account_id: accountId, action_plan_id: actionPlanId, ...stepColumns(step, i) })
        .execute();
    }
  }
  if (isNewPlan) return;
  const active = await trx
    .selectFrom('action_plans_people')
    .select(['id', 'account_id', 'action_plan_id', 'started_at'])
    .where('account_id', '=', accountId)
    .where('action_plan_id', '=', actionPlanId)
    .where('status', 'in', ['Running', 'Paused'])
    .execute();
  for (const row of active) await refreshSchedule(trx, row);
}

/** Pauses or resumes a person-plan. A resumed plan runs the steps that fell due while it was paused. */
export async function setPlanPersonStatus(
  trx: Trx,
  accountId: number,
  id: number,
  status: 'Running' | 'Paused',
  at: string,
): Promise<void> {
  const row = await trx
    .selectFrom('action_plans_people')
    .select(['id', 'account_id', 'action_plan_id', 'started_at', 'status'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  if (row.status === 'Completed')
    throw conflict(
      `Action plan run ${id} is Completed; it cannot be paused or resumed (start the plan again instead)`,
    );
  if (row.status === status) return;
  await trx
    .updateTable('action_plans_people')
    .set({ status, updated_at: at })
    .where('id', '=', id)
    .execute();
  if (status === 'Running') await refreshSchedule(trx, row);
}

/** Creates a plan with its steps, in one transaction. */
export function createPlan(
  db: Db,
  accountId: number,
  body: Static<typeof ActionPlanCreateBody>,
  at: string,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const id = await insertPlan(trx, {
      account_id: accountId,
      name: body.name.trim(),
      description: body.description ?? '',
      status: body.status ?? 'Active',
      created_at: at,
      updated_at: at,
    });
    await replaceSteps(trx, accountId, id, body.steps ?? [], true);
    return id;
  });
}

/** Changes a plan's fields; `steps`, when given, replaces its steps. */
export function changePlan(
  db: Db,
  accountId: number,
  id: number,
  body: Static<typeof ActionPlanUpdateBody>,
  at: string,
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const row = await findPlan(trx, accountId, id);
    if (!row) throw notFound(`Action plan ${id}`);
    await updatePlan(trx, id, {
      name: body.name?.trim() ?? row.name,
      description: body.description ?? row.description,
      status: body.status ?? row.status,
      updated_at: at,
    });
    if (body.steps) await replaceSteps(trx, accountId, id, body.steps, false);
  });
}

/** Deletes a plan (people on it are taken off) and stops lead flows from starting it. */
export function removePlan(db: Db, accountId: number, id: number): Promise<void> {
  return db.transaction().execute(async (trx) => {
    if (!(await deleteAccountRow(trx, 'action_plans', accountId, id)))
      throw notFound(`Action plan ${id}`);
    await forgetActionPlan(trx, accountId, id);
  });
}
