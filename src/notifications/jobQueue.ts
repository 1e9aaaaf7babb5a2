import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { DbOrTrx, Trx } from '../db/database.js';
import type { BackgroundJob } from '../worker.js';
import { isoSeconds } from '../time.js';
import type { LeadJobsTable } from './notifications.tables.js';

export type JobRow = Selectable<LeadJobsTable>;

/** A failure that retrying cannot fix (e.g. the provider refused the request): the job is failed at once. */
export class PermanentJobError extends Error {}

/** Queues outside work in the caller's transaction: it only becomes visible if the change commits. */
export async function enqueueJob(trx: Trx, accountId: number, kind: string, payload: unknown, nowMs: number): Promise<void> {
  const at = isoSeconds(nowMs);
  await trx
    .insertInto('lead_jobs')
    .values({ account_id: accountId, kind, payload: JSON.stringify(payload), status: 'pending', run_at: at, locked_until: null, last_error: null, created_at: at, finished_at: null })
    .execute();
}

/**
 * Takes up to `limit` due jobs of a kind and leases them for `leaseMs`. On PostgreSQL the rows are
 * picked with FOR UPDATE SKIP LOCKED, so concurrent workers never take the same job; a worker that
 * dies leaves its lease to expire and the job runs again.
 */
export async function claimJobs(ctx: AppContext, kind: string, limit: number, leaseMs: number): Promise<JobRow[]> {
  const now = ctx.clock.now();
  const at = isoSeconds(now);
  let due = ctx.db
    .selectFrom('lead_jobs')
    .select('id')
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .where('run_at', '<=', at)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
    .orderBy('id')
    .limit(limit);
  if (ctx.dialect === 'postgres') due = due.forUpdate().skipLocked();
  return ctx.db
    .updateTable('lead_jobs')
    .set((eb) => ({ locked_until: isoSeconds(now + leaseMs), attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

export async function completeJob(db: DbOrTrx, id: number, nowMs: number): Promise<void> {
  await db.updateTable('lead_jobs').set({ status: 'done', locked_until: null, finished_at: isoSeconds(nowMs), last_error: null }).where('id', '=', id).execute();
}

/** Seconds to wait before the retry after `attempts` tries; null once the schedule is used up. */
export function retryDelay(attempts: number, schedule: number[]): number | null {
  return attempts <= schedule.length ? schedule[attempts - 1] : null;
}

export async function failJob(db: DbOrTrx, job: JobRow, error: Error, schedule: number[], nowMs: number): Promise<'retry' | 'failed'> {
  const delay = error instanceof PermanentJobError ? null : retryDelay(job.attempts, schedule);
  const message = error.message.slice(0, 1000);
  if (delay === null) {
    await db.updateTable('lead_jobs').set({ status: 'failed', locked_until: null, finished_at: isoSeconds(nowMs), last_error: message }).where('id', '=', job.id).execute();
    return 'failed';
  }
  await db.updateTable('lead_jobs').set({ run_at: isoSeconds(nowMs + delay * 1000), locked_until: null, last_error: message }).where('id', '=', job.id).execute();
  return 'retry';
}

export interface QueueWorkerSpec {
  name: string;
  kind: string;
  /** seconds before retry 1, 2, …; when used up the job is failed */
  retrySchedule: number[];
  handle(job: JobRow): Promise<void>;
  pollMs?: number;
  batch?: number;
  leaseMs?: number;
}

/** A BackgroundJob that drains one kind of queued job, with retries and a lease per claim. */
export function queueWorker(ctx: AppContext, spec: QueueWorkerSpec): BackgroundJob {
  const pollMs = spec.pollMs ?? 250;
  const batch = spec.batch ?? 10;
  const leaseMs = spec.leaseMs ?? 120_000;
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;

  const runOne = async (job: JobRow) => {
    try {
      await spec.handle(job);
      await completeJob(ctx.db, job.id, ctx.clock.now());
    } catch (err) {
      const outcome = await failJob(ctx.db, job, err as Error, spec.retrySchedule, ctx.clock.now());
      ctx.log.warn({ job: spec.name, jobId: job.id, attempts: job.attempts, outcome, err: (err as Error).message }, 'queued job failed');
    }
  };

  const tick = async (): Promise<number> => {
    const jobs = await claimJobs(ctx, spec.kind, batch, leaseMs);
    await Promise.all(jobs.map(runOne));
    return jobs.length;
  };

  return {
    name: spec.name,
    start() {
      running = true;
      loop = (async () => {
        while (running) {
          let handled = 0;
          try {
            handled = await tick();
          } catch (err) {
            ctx.log.error({ job: spec.name, err }, 'queue poll failed');
          }
          if (handled < batch && running) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, pollMs);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = null;
          }
        }
      })();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
