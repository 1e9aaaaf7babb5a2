import type { AppContext } from '../context.js';
import { pollingLoop } from './loop.js';
import { claimJobs, completeJob, failJob, type JobRow } from './queue.js';
import type { BackgroundJob } from './types.js';

export interface QueueWorkerSpec {
  name: string;
  kind: string;
  /** seconds before retry 1, 2, …; when used up the job is failed */
  retrySchedule: number[];
  /** Does the job; throwing retries it (PermanentJobError: fails it at once). */
  handle(job: JobRow): Promise<void>;
  pollMs?: number;
  batch?: number;
  leaseMs?: number;
}

/** A BackgroundJob that drains one kind of queued job, with retries and a lease per claim. */
export function queueWorker(ctx: AppContext, spec: QueueWorkerSpec): BackgroundJob {
  const batch = spec.batch ?? 10;
  const leaseMs = spec.leaseMs ?? 120_000;

  const runOne = async (job: JobRow) => {
    try {
      await spec.handle(job);
      await completeJob(ctx.db, job.id, ctx.clock.now());
    } catch (err) {
      const outcome = await failJob(ctx.db, job, err as Error, spec.retrySchedule, ctx.clock.now());
      const error = (err as Error).message;
      ctx.log.warn(
        { job: spec.name, jobId: job.id, attempts: job.attempts, outcome, err: error },
        'queued job failed',
      );
    }
  };

  return pollingLoop(ctx, {
    name: spec.name,
    pollMs: spec.pollMs ?? 250,
    async tick() {
      const jobs = await claimJobs(ctx, spec.kind, batch, leaseMs);
      await Promise.all(jobs.map(runOne));
      return jobs.length === batch;
    },
  });
}
