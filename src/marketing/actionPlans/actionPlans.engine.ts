import type { AppContext } from '../../platform/context.js';
import { responsibleAgentId } from '../../contacts/people/assignment.js';
import type { Trx } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import type { BackgroundJob } from '../../platform/jobs/types.js';
import { pollingLoop } from '../../platform/jobs/loop.js';
import { insertTask, type TaskType } from '../../timeline/tasks/tasks.repo.js';
import { accountOwnerId } from '../../leads/leadFlows/leadFlows.service.js';
import { logTemplateEmail } from '../templates/template-email.js';
import { findTemplateInAccount, type TemplateRow } from '../templates/templates.repo.js';
import { loadMergeData } from '../templates/merge-data.js';
import { type MergeData, renderMergeFields } from '../templates/merge-fields.js';
import { isoSeconds } from '../../platform/time.js';
import { nextDueAt, nextPendingStep, stepDueAt } from './actionPlans.schedule.js';
import type { StepRow } from './actionPlans.presenter.js';
import type { ActionPlansPeopleTable } from './actionPlans.tables.js';
import type { Selectable } from 'kysely';

/** How often the engine looks for steps that fell due. */
export const POLL_INTERVAL_MS = 500;
const BATCH = 100;
/** Task names are at most this long (the tasks API's limit). */
const TASK_NAME_MAX = 500;
/** Rounds per tick: a round advances each due person-plan by one step. */
const MAX_ROUNDS = 50;

type PlanPerson = Selectable<ActionPlansPeopleTable>;

/** Carries out one step inside the caller's transaction; returns what it created. */
async function carryOut(
  ctx: AppContext,
  trx: Trx,
  run: PlanPerson,
  step: StepRow,
  dueAt: string,
  now: number,
) {
  const accountId = run.account_id;
  const person = await trx
    .selectFrom('people')
    .select(['assigned_user_id', 'assigned_pond_id'])
    .where('id', '=', run.person_id)
    .executeTakeFirstOrThrow();
  const agentId =
    (await responsibleAgentId(trx, accountId, {
      assignedUserId: person.assigned_user_id,
      assignedPondId: person.assigned_pond_id,
    })) ?? (await accountOwnerId(trx, accountId));
  if (step.kind === 'task') {
    const taskId = await insertTask(trx, accountId, {
      personId: run.person_id,
      name: step.task_name ?? 'Follow up',
      type: (step.task_type ?? 'Follow Up') as TaskType,
      assignedUserId: agentId,
      dueDate: dueAt.slice(0, 10),
      now,
    });
    return { task_id: taskId, email_id: null };
  }
  const kind = step.kind === 'text' ? 'text' : 'email';
  const template =
    step.template_id === null
      ? undefined
      : await findTemplateInAccount(trx, accountId, step.template_id, kind);
  if (!template) {
    // Templates in use cannot be deleted, so this is a plan edited under our feet: skip, do not stall.
    ctx.log.warn(
      { planPersonId: run.id, stepId: step.id },
      `action plan ${kind} step has no template; skipped`,
    );
    return { task_id: null, email_id: null };
  }
  if (kind === 'text') {
    const merge = await loadMergeData(trx, accountId, run.person_id, agentId);
    return {
      task_id: await textTask(trx, run, template, merge!.data, agentId, dueAt, now),
      email_id: null,
    };
  }
  const emailId = await logTemplateEmail(
    trx,
    accountId,
    run.person_id,
    template,
    agentId,
    'Hearth action plans',
    now,
  );
  return { task_id: null, email_id: emailId };
}

/** Hearth sends no text messages: a text step gives the agent a Text task holding the merged message. */
function textTask(
  trx: Trx,
  run: PlanPerson,
  template: TemplateRow,
  data: MergeData,
  agentId: number | null,
  dueAt: string,
  now: number,
) {
  const message = renderMergeFields(template.body, data).trim();
  return insertTask(trx, run.account_id, {
    personId: run.person_id,
    name: `Text: ${message}`.slice(0, TASK_NAME_MAX),
    type: 'Text',
    assignedUserId: agentId,
    dueDate: dueAt.slice(0, 10),
    now,
  });
}

/**
 * Advances one person-plan by at most one step, in ONE transaction: the step's task or email, the
 * step-run row (UNIQUE per person-plan and step) and the new schedule commit together or not at
 * all. A crash before the commit leaves the step pending, a commit marks it done: restarts neither
 * skip nor repeat a step, and two workers racing on it cannot both commit.
 */
async function advance(ctx: AppContext, planPersonId: number, now: number): Promise<boolean> {
  const at = isoSeconds(now);
  return ctx.db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('action_plans_people')
      .selectAll()
      .where('id', '=', planPersonId)
      .where('status', '=', 'Running')
      .where('next_due_at', '<=', at);
    if (ctx.dialect === 'postgres') query = query.forUpdate().skipLocked();
    const run = await query.executeTakeFirst();
    if (!run) return false;
    const step = await nextPendingStep(trx, run.account_id, run.id, run.action_plan_id);
    const complete = () =>
      trx
        .updateTable('action_plans_people')
        .set({ status: 'Completed', completed_at: at, next_due_at: null, updated_at: at })
        .where('id', '=', run.id)
        .execute();
    if (!step) {
      await complete();
      return true;
    }
    const dueAt = stepDueAt(run.started_at, step.delay_days);
    if (dueAt > at) {
      await trx
        .updateTable('action_plans_people')
        .set({ next_due_at: dueAt })
        .where('id', '=', run.id)
        .execute();
      return false;
    }
    const created = await carryOut(ctx, trx, run, step, dueAt, now);
    await trx
      .insertInto('action_plan_step_runs')
      .values({
        account_id: run.account_id,
        plan_person_id: run.id,
        step_id: step.id,
        due_at: dueAt,
        executed_at: at,
        ...created,
      })
      .execute();
    const next = await nextPendingStep(trx, run.account_id, run.id, run.action_plan_id);
    if (!next) await complete();
    else
      await trx
        .updateTable('action_plans_people')
        .set({ next_due_at: nextDueAt(run.started_at, next), updated_at: at })
        .where('id', '=', run.id)
        .execute();
    return true;
  });
}

/** One pass over the person-plans whose next step is due; returns how many advanced. */
export async function runDueActionPlanSteps(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  let advanced = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const due = await ctx.db
      .selectFrom('action_plans_people')
      .select('id')
      .where('status', '=', 'Running')
      .where('next_due_at', '<=', isoSeconds(now))
      .orderBy('next_due_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    let progressed = 0;
    for (const { id } of due) {
      try {
        if (await advance(ctx, id, now)) progressed++;
      } catch (err) {
        // Another worker committed this step first: the constraint did its job.
        if (isUniqueViolation(err)) continue;
        ctx.log.error(
          { err, planPersonId: id },
          'action plan step failed; it stays pending and is retried',
        );
      }
    }
    advanced += progressed;
    if (progressed === 0) break;
  }
  return advanced;
}

/** The background job that carries out action plan steps as they fall due. */
export function actionPlansJob(ctx: AppContext): BackgroundJob {
  return pollingLoop(ctx, {
    name: 'actionPlans',
    pollMs: POLL_INTERVAL_MS,
    async tick() {
      await runDueActionPlanSteps(ctx);
      return false;
    },
  });
}
