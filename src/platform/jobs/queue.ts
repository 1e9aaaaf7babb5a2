import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { DbOrTrx, Trx } from '../db/database.js';
import { isoSeconds } from '../time.js';
import type { JobsTable } from './jobs.tables.js';
import { insertRows } from '../db/reusable-query.js';

export type JobRow = Selectable<JobsTable>;

/** A failure that retrying cannot fix (e.g. the provider refused the request): the job is failed at once. */
export class PermanentJobError extends Error {}

export interface NewJob {
  accountId: number;
  /** Names the queue worker that handles it (QueueWorkerSpec.kind). */
  kind: string;
  /** Stored as JSON; keep it small (ids, not documents). */
  payload: unknown;
  /** Not before this time (ms since the epoch); default now. */
  runAtMs?: number;
}

/**
 * Queues background work in the caller's transaction: it only becomes visible if the change
 * commits. The time comes from ctx.clock.
 */
export async function enqueueJob(
  ctx: Pick<AppContext, 'clock'>,
  trx: Trx,
  job: NewJob,
): Promise<void> {
  await enqueueJobs(ctx, trx, [job]);
}

/** Jobs per INSERT statement when many are queued at once. */
const JOBS_PER_INSERT = 500;

/** Queues many jobs in the caller's transaction, a few statements for thousands. */
export async function enqueueJobs(
  ctx: Pick<AppContext, 'clock'>,
  trx: Trx,
  jobs: NewJob[],
): Promise<void> {
  const now = isoSeconds(ctx.clock.now());
  const rows = jobs.map((job) => ({
    account_id: job.accountId,
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    status: 'pending' as const,
    run_at: job.runAtMs === undefined ? now : isoSeconds(job.runAtMs),
    locked_until: null,
    last_error: null,
    created_at: now,
    finished_at: null,
  }));
  for (let i = 0; i < rows.length; i += JOBS_PER_INSERT)
    await insertRows(trx, 'lead_jobs', rows.slice(i, i + JOBS_PER_INSERT));
}

/**
 * Takes up to `limit` due jobs of a kind and leases them for `leaseMs`. On PostgreSQL the rows are
 * picked with FOR UPDATE SKIP LOCKED, so concurrent workers never take the same job; a worker that
 * dies leaves its lease to expire and the job runs again.
 */
export async function claimJobs(
  ctx: AppContext,
  kind: string,
  limit: number,
  leaseMs: number,
): Promise<JobRow[]> {
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

/** Keeps a long job's lease (e.g. a big import) from running out while it still works on it. */
export async function extendLease(ctx: AppContext, id: number, leaseMs: number): Promise<void> {
  await ctx.db
    .updateTable('lead_jobs')
    .set({ locked_until: isoSeconds(ctx.clock.now() + leaseMs) })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function completeJob(db: DbOrTrx, id: number, nowMs: number): Promise<void> {
  await completeJobs(db, [id], nowMs);
}

/** Marks many jobs done in one statement (a worker that handles its claim as a batch). */
export async function completeJobs(db: DbOrTrx, ids: number[], nowMs: number): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable('lead_jobs')
    .set({ status: 'done', locked_until: null, finished_at: isoSeconds(nowMs), last_error: null })
    .where('id', 'in', ids)
    .execute();
}

/** Seconds to wait before the retry after `attempts` tries; null once the schedule is used up. */
export function retryDelay(attempts: number, schedule: number[]): number | null {
  return attempts <= schedule.length ? schedule[attempts - 1] : null;
}

export async function failJob(
  db: DbOrTrx,
  job: JobRow,
  error: Error,
  schedule: number[],
  nowMs: number,
): Promise<'retry' | 'failed'> {
  const delay = error instanceof PermanentJobError ? null : retryDelay(job.attempts, schedule);
  const message = error.message.slice(0, 1000);
  if (delay === null) {
    await db
      .updateTable('lead_jobs')
      .set({
        status: 'failed',
        locked_until: null,
        finished_at: isoSeconds(nowMs),
        last_error: message,
      })
      .where('id', '=', job.id)
      .execute();
    return 'failed';
  }
  await db
    .updateTable('lead_jobs')
    .set({ run_at: isoSeconds(nowMs + delay * 1000), locked_until: null, last_error: message })
    .where('id', '=', job.id)
    .execute();
  return 'retry';
}
