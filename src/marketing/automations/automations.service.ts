import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../accounts/auth/authenticate.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { assertPersonVisible } from '../../access/visibility.js';
import { enqueueJob } from '../../platform/jobs/queue.js';
import { isoSeconds } from '../../platform/time.js';
import type {
  AutomationCreateBody,
  AutomationUpdateBody,
  TriggerInput,
} from './automations.schemas.js';
import { findAutomation, findVisibleRun, LIVE_STATUSES } from './automations.repo.js';
import type { RunStatus } from './automations.tables.js';
import { AUTOMATION_RUN_JOB, type RunPayload } from './runs.js';
import { startQualifying } from './triggers.js';
import { checkActions, checkTrigger } from './validate.js';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config'>;

/** Scheduled triggers look forward from when they are armed: no backlog of old dates. */
function scanStart(trigger: TriggerInput, at: string): string | null {
  return trigger.type === 'dateReached' || trigger.type === 'noContact' ? at : null;
}

export async function createAutomation(
  ctx: Ctx,
  auth: AuthUser,
  body: Static<typeof AutomationCreateBody>,
): Promise<number> {
  await checkTrigger(ctx.db, auth.accountId, body.trigger);
  const actions = await checkActions(ctx.db, ctx.config, auth.accountId, body.actions);
  const at = isoSeconds(ctx.clock.now());
  const row = await ctx.db
    .insertInto('automations')
    .values({
      account_id: auth.accountId,
      name: body.name.trim(),
      status: body.status ?? 'Active',
      trigger_type: body.trigger.type,
      trigger: JSON.stringify(body.trigger),
      actions: JSON.stringify(actions),
      scanned_until: scanStart(body.trigger, at),
      created_by_id: auth.userId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Changes what was sent. Runs already going keep their place: new actions apply from their next
 * step on (an index past the new end completes them).
 */
export async function changeAutomation(
  ctx: Ctx,
  auth: AuthUser,
  id: number,
  body: Static<typeof AutomationUpdateBody>,
): Promise<void> {
  const row = await findAutomation(ctx.db, auth.accountId, id);
  if (!row) throw notFound(`Automation ${id}`);
  if (body.trigger) await checkTrigger(ctx.db, auth.accountId, body.trigger);
  const actions =
    body.actions && (await checkActions(ctx.db, ctx.config, auth.accountId, body.actions));
  const at = isoSeconds(ctx.clock.now());
  const rearmed =
    body.trigger ??
    (body.status === 'Active' && row.status !== 'Active' && JSON.parse(row.trigger));
  await ctx.db
    .updateTable('automations')
    .set({
      ...(body.name !== undefined ? { name: body.name.trim() } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
      ...(body.trigger
        ? { trigger: JSON.stringify(body.trigger), trigger_type: body.trigger.type }
        : {}),
      ...(rearmed ? { scanned_until: scanStart(rearmed, at) } : {}),
      ...(actions ? { actions: JSON.stringify(actions) } : {}),
      updated_at: at,
    })
    .where('account_id', '=', auth.accountId)
    .where('id', '=', id)
    .execute();
}

/** Deletes an automation; its runs go with it (their pending jobs then find nothing to do). */
export async function removeAutomation(ctx: Ctx, auth: AuthUser, id: number): Promise<void> {
  const result = await ctx.db
    .deleteFrom('automations')
    .where('account_id', '=', auth.accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(`Automation ${id}`);
}

/** POST /v1/automationsPeople: runs an Active automation for a person the caller sees. */
export async function startForPerson(
  ctx: Ctx,
  auth: AuthUser,
  automationId: number,
  personId: number,
): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    await assertPersonVisible(trx, auth, personId);
    const automation = await findAutomation(trx, auth.accountId, automationId);
    if (!automation)
      throw badRequest(`No automation ${automationId} in this account`, [
        { field: 'automationId', message: 'unknown automation' },
      ]);
    if (automation.status !== 'Active')
      throw badRequest(`Automation ${automationId} is Inactive; activate it before running it`, [
        { field: 'automationId', message: 'inactive automation' },
      ]);
    const [runId] = await startQualifying(
      ctx,
      trx,
      { ...automation, trigger: { type: 'personCreated' } },
      [personId],
    );
    if (runId === undefined)
      throw conflict(
        `Person ${personId} is already in automation ${automationId}, or has started the most runs a person may start in a day`,
      );
    return runId;
  });
}

/**
 * PUT /v1/automationsPeople/:id: Paused stops a run after its current step, Running resumes it
 * where it was (a wait still on ends when it would have), Cancelled ends it for good.
 */
export async function changeRunStatus(
  ctx: Ctx,
  auth: AuthUser,
  id: number,
  status: Extract<RunStatus, 'Running' | 'Paused' | 'Cancelled'>,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx: Trx) => {
    const run = await findVisibleRun(trx, auth, id);
    if (!run) throw notFound(`Automation run ${id}`);
    if (run.status === status) return;
    if (!LIVE_STATUSES.includes(run.status))
      throw conflict(`Automation run ${id} is ${run.status}; it cannot change any more`);
    const nowMs = ctx.clock.now();
    await trx
      .updateTable('automation_runs')
      .set({ status, updated_at: isoSeconds(nowMs) })
      .where('id', '=', id)
      .where('status', '=', run.status)
      .execute();
    if (status !== 'Running') return;
    const wake = run.wake_at === null ? nowMs : Math.max(nowMs, Date.parse(run.wake_at));
    await enqueueJob(ctx, trx, {
      accountId: auth.accountId,
      kind: AUTOMATION_RUN_JOB,
      payload: { runId: id } satisfies RunPayload,
      runAtMs: wake,
    });
  });
}
