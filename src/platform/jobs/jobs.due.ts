import type { DueWorkSource } from '../metrics/metrics.routes.js';
import './jobs.tables.js';

/** Jobs due now, for the queue gauges of /metrics. */
export const dueJobs: DueWorkSource = {
  queue: 'jobs',
  due: (db, now) =>
    db
      .selectFrom('lead_jobs')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('run_at').as('oldest')])
      .where('status', '=', 'pending')
      .where('run_at', '<=', now)
      .executeTakeFirstOrThrow(),
};
