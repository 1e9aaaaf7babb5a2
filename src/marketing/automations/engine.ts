import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { ApiError } from '../../platform/http/errors.js';
import { enqueueJob, extendLease, type JobRow } from '../../platform/jobs/queue.js';
import { queueWorker } from '../../platform/jobs/queue-worker.js';
import type { BackgroundJob } from '../../platform/jobs/types.js';
import { WebhookSender } from '../../accounts/webhooks/sender.js';
import { isoSeconds } from '../../platform/time.js';
import type { ActionInput } from './automations.schemas.js';
import type { RunRow } from './automations.repo.js';
import { callWebhook, carryOutAction } from './actions.js';
import { AUTOMATION_RUN_JOB, type RunPayload } from './runs.js';

/** Seconds before retry 1, 2, …: a webhook action whose receiver is down gets about a day. */
const RETRY_SCHEDULE = [10, 60, 300, 1800, 3600, 21_600, 64_800];
/** More than every action of the longest automation (50) and its waits. */
const MAX_STEPS_PER_JOB = 60;

type Outcome = 'next' | 'stop';

/** May the run take step `step` now? Not when paused or over, when another job took the step
 * first, or while a wait is still on (a resumed run's early job). */
function runnable(ctx: AppContext, run: RunRow | undefined, step: number): run is RunRow {
  if (!run || (run.status !== 'Initial' && run.status !== 'Running')) return false;
  if (run.step !== step) return false;
  return run.wake_at === null || run.wake_at <= isoSeconds(ctx.clock.now());
}

/** The run, locked for the step, if it may take step `step` now. */
async function lockRunnable(ctx: AppContext, trx: Trx, runId: number, step: number) {
  let query = trx.selectFrom('automation_runs').selectAll().where('id', '=', runId);
  if (ctx.dialect === 'postgres') query = query.forUpdate();
  const run = await query.executeTakeFirst();
  return runnable(ctx, run, step) ? run : null;
}

async function actionsOf(ctx: AppContext, run: RunRow): Promise<ActionInput[]> {
  const automation = await ctx.db
    .selectFrom('automations')
    .select('actions')
    .where('id', '=', run.automation_id)
    .executeTakeFirst();
  return automation ? (JSON.parse(automation.actions) as ActionInput[]) : [];
}

/**
 * Takes one step of a run in ONE transaction: the action's effect and the step counted done
 * commit together, so no restart repeats or skips it. A `wait` queues the job that continues the
 * run when it ends. A webhook is called before that transaction (at least once, see callWebhook).
 */
async function takeStep(
  ctx: AppContext,
  sender: WebhookSender,
  job: JobRow,
  runId: number,
): Promise<Outcome> {
  const seen = await ctx.db
    .selectFrom('automation_runs')
    .selectAll()
    .where('id', '=', runId)
    .executeTakeFirst();
  if (!seen) return 'stop';
  const actions = await actionsOf(ctx, seen);
  const action = actions[seen.step];
  if (action?.type === 'webhook' && runnable(ctx, seen, seen.step)) {
    const lastTry = job.attempts > RETRY_SCHEDULE.length;
    await callWebhook(ctx, sender, seen, action.url).catch((err: Error) => {
      if (!lastTry) throw err;
      ctx.log.warn({ runId, err: err.message }, 'automation webhook failed for good; step skipped');
    });
  }
  return ctx.db.transaction().execute(async (trx) => {
    const run = await lockRunnable(ctx, trx, runId, seen.step);
    if (!run) return 'stop';
    const nowMs = ctx.clock.now();
    const at = isoSeconds(nowMs);
    const done = (more: Partial<RunRow>) =>
      trx
        .updateTable('automation_runs')
        .set({ step: run.step + 1, status: 'Running', wake_at: null, updated_at: at, ...more })
        .where('id', '=', run.id)
        .execute();
    if (!action) {
      await done({ step: run.step, status: 'Completed' });
      return 'stop';
    }
    if (action.type === 'wait') {
      const wake = nowMs + action.seconds * 1000;
      await done({ wake_at: isoSeconds(wake) });
      await enqueueJob(ctx, trx, {
        accountId: run.account_id,
        kind: AUTOMATION_RUN_JOB,
        payload: { runId } satisfies RunPayload,
        runAtMs: wake,
      });
      return 'stop';
    }
    if (action.type !== 'webhook') await carryOutOrSkip(ctx, trx, run, action);
    await done(run.step + 1 >= actions.length ? { status: 'Completed' } : {});
    return run.step + 1 >= actions.length ? 'stop' : 'next';
  });
}

/**
 * A target gone since the automation was saved (a deleted stage, user or plan) skips its action
 * with a warning rather than stalling the run; anything else fails the step, which is retried.
 */
async function carryOutOrSkip(
  ctx: AppContext,
  trx: Trx,
  run: RunRow,
  action: Exclude<ActionInput, { type: 'wait' | 'webhook' }>,
) {
  try {
    // An ApiError comes from the application's checks, before any statement failed: the
    // transaction is still good (PostgreSQL aborts one only on a failed statement).
    await carryOutAction(ctx, trx, run, action);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    ctx.log.warn(
      { runId: run.id, action: action.type, err: err.message },
      'automation action skipped',
    );
  }
}

/** The queue worker that carries runs forward, step by step. */
export function automationRunsJob(ctx: AppContext): BackgroundJob {
  const sender = new WebhookSender(ctx.config);
  // Longer than the slowest step (a webhook's time limit), renewed after each step.
  const leaseMs = ctx.config.webhookTimeout * 1000 + 10_000;
  const worker = queueWorker(ctx, {
    name: 'automations',
    kind: AUTOMATION_RUN_JOB,
    retrySchedule: RETRY_SCHEDULE,
    // A few runs at a time: 20 made no more runs/s and put GET /livez's p99 at 160 ms (bench).
    batch: 4,
    leaseMs,
    async handle(job) {
      const { runId } = JSON.parse(job.payload) as RunPayload;
      for (let i = 0; i < MAX_STEPS_PER_JOB; i++) {
        if ((await takeStep(ctx, sender, job, runId)) === 'stop') return;
        await extendLease(ctx, job.id, leaseMs);
      }
    },
  });
  return {
    ...worker,
    async stop() {
      await worker.stop();
      await sender.close();
    },
  };
}
